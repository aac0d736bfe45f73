//! App updates (docs/packaging.md#updates): what `update_check` and `update_install` answer. A
//! check that was not allowed or not due, a refused download and a failure are answers, not
//! command errors, so the window words each one (a refusal names why: bad signature, truncated
//! download, no build for this platform). Whether a check is allowed and due, and whether an
//! offered version is newer, is the core's (`vibe_core::updates`); talking to the update server,
//! verifying the signature and installing are the desktop shell's (tauri-plugin-updater).

use serde::{Deserialize, Serialize};

/// `update_check`: `manual` is the Settings button ("Check now"): it skips the once-a-day rule,
/// never the person's choice (updates off means no request at all).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct UpdateCheckRequest {
    #[serde(default)]
    pub manual: bool,
}

/// A newer version the update server offers (its `latest.json`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct UpdateOffer {
    /// The offered version (semver), always newer than the running one.
    pub version: String,
    /// The running version.
    pub current_version: String,
    /// What's new, as the release wrote it (Markdown or plain text).
    pub notes: Option<String>,
    /// When it was published (RFC 3339), when the manifest says.
    pub date: Option<String>,
}

/// Why a download or a manifest was refused; nothing was installed or changed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
#[serde(rename_all = "snake_case")]
pub enum UpdateRefusal {
    /// The download does not match its minisign signature under the app's public key (or the
    /// signature names another version than the manifest).
    BadSignature,
    /// The download ended before all of it arrived.
    TruncatedDownload,
    /// The manifest has no build for this operating system and processor.
    NoBuildForPlatform,
    /// The downloaded file is not a package of the kind this installation can install.
    NotAPackage,
}

/// The outcome of `update_check`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
#[serde(tag = "outcome", rename_all = "snake_case")]
pub enum UpdateCheck {
    /// The person did not allow update checks (or has not chosen yet): no request was made.
    NotAllowed,
    /// Checked less than a day ago (an automatic check): no request was made.
    NotDue,
    /// The server offers nothing newer (a lower or equal version is ignored).
    UpToDate,
    /// A newer version; `update_install` downloads, verifies and installs it.
    Available { offer: UpdateOffer },
    /// The manifest was refused.
    Refused { reason: UpdateRefusal, message: String },
    /// The server could not be reached or answered something unreadable.
    Failed { message: String },
}

/// The outcome of `update_install`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
#[serde(tag = "outcome", rename_all = "snake_case")]
pub enum UpdateInstall {
    /// Installed; it runs from the next start.
    Installed { version: String },
    /// No update was found by a check before (check first).
    NothingToInstall,
    /// The download was refused; nothing was installed or changed.
    Refused { reason: UpdateRefusal, message: String },
    /// The download or the installer failed; nothing was installed.
    Failed { message: String },
}
