//! Updates (docs/packaging.md#updates) through tauri-plugin-updater: asks the update server's
//! `latest.json` (the endpoint of `tauri.conf.json`, or `VIBELIFE_UPDATE_URL` for tests),
//! downloads the build for this platform, verifies its minisign signature against the public key
//! of `tauri.conf.json` and installs it. Only adapts: whether a check may happen and whether a
//! version is newer are the core's (`vibe_core::app::updates`); the plugin's errors become the
//! wire's refusals (bad signature, truncated download, no build for this platform).

use std::time::Duration;

use tauri::{AppHandle, Runtime};
use tauri_plugin_updater::{Error, Update, UpdaterBuilder, UpdaterExt as _};
use time::format_description::well_known::Rfc3339;
use vibe_core::app::updates::{CheckDecision, is_newer};
use vibe_wire::command::{UpdateCheck, UpdateInstall, UpdateOffer, UpdateRefusal};

/// The environment variable naming another `latest.json` (tests point it at loopback).
pub const URL_ENV: &str = "VIBELIFE_UPDATE_URL";

/// How long a check may wait for the manifest (not the download): checks run one at a time
/// (`update_runs`), so a server that never answers must not hold the next one forever.
pub const CHECK_TIMEOUT: Duration = Duration::from_secs(60);

/// The app's updater: the configured endpoint or `endpoint` (from [`URL_ENV`]), the core's
/// "newer" rule as the version comparator, so a lower or equal version is never offered, and
/// [`CHECK_TIMEOUT`].
pub fn builder<R: Runtime>(
    app: &AppHandle<R>,
    endpoint: Option<String>,
) -> Result<UpdaterBuilder, Error> {
    let mut builder = app
        .updater_builder()
        .version_comparator(|current, release| {
            is_newer(&current.to_string(), &release.version.to_string())
        })
        .timeout(CHECK_TIMEOUT);
    if let Some(url) = endpoint.filter(|u| !u.is_empty()) {
        let url = url.parse().map_err(|e| Error::Network(format!("{URL_ENV}={url:?}: {e}")))?;
        builder = builder.endpoints(vec![url])?;
    }
    Ok(builder)
}

/// Asks the server when `decision` allows it; nothing at all (not even building the client)
/// otherwise. Returns the answer for the window and the update to keep for the install.
pub async fn check<F>(decision: CheckDecision, builder: F) -> (UpdateCheck, Option<Update>)
where
    F: FnOnce() -> Result<UpdaterBuilder, Error>,
{
    match decision {
        CheckDecision::NotAllowed => return (UpdateCheck::NotAllowed, None),
        CheckDecision::NotDue => return (UpdateCheck::NotDue, None),
        CheckDecision::Check => {}
    }
    let found = match builder().and_then(UpdaterBuilder::build) {
        Ok(updater) => updater.check().await,
        Err(e) => Err(e),
    };
    match found {
        Ok(None) => (UpdateCheck::UpToDate, None),
        Ok(Some(update)) => {
            tracing::info!(version = %update.version, "an update is available");
            let offer = UpdateOffer {
                version: update.version.clone(),
                current_version: update.current_version.clone(),
                notes: update.body.clone().filter(|n| !n.trim().is_empty()),
                date: update.date.and_then(|d| d.format(&Rfc3339).ok()),
            };
            (UpdateCheck::Available { offer }, Some(update))
        }
        Err(e) => {
            tracing::warn!("the update check failed: {e}");
            let message = e.to_string();
            match refusal(&e) {
                Some(reason) => (UpdateCheck::Refused { reason, message }, None),
                None => (UpdateCheck::Failed { message }, None),
            }
        }
    }
}

/// Downloads `update`, verifies it and installs it (the package manager through pkexec for a
/// `.deb` or `.rpm`, the file itself for an AppImage). A download that fails verification is
/// refused before anything is written.
pub async fn install(update: Update) -> UpdateInstall {
    let version = update.version.clone();
    let bytes = match update.download(|_, _| {}, || {}).await {
        Ok(bytes) => bytes,
        Err(e) => return failed("the update download was refused", &e),
    };
    // The installer waits for the package manager (and a password prompt): not on the runtime.
    let installed = tauri::async_runtime::spawn_blocking(move || update.install(bytes)).await;
    match installed {
        Ok(Ok(())) => {
            tracing::info!(%version, "update installed");
            UpdateInstall::Installed { version }
        }
        Ok(Err(e)) => failed("the update could not be installed", &e),
        Err(e) => UpdateInstall::Failed { message: format!("the installer stopped: {e}") },
    }
}

fn failed(what: &str, e: &Error) -> UpdateInstall {
    tracing::warn!("{what}: {e}");
    let message = e.to_string();
    match refusal(e) {
        Some(reason) => UpdateInstall::Refused { reason, message },
        None => UpdateInstall::Failed { message },
    }
}

/// Which refusal a plugin error is (`None`: a failure, e.g. the network).
pub fn refusal(e: &Error) -> Option<UpdateRefusal> {
    match e {
        Error::Minisign(_)
        | Error::Base64(_)
        | Error::SignatureUtf8(_)
        | Error::SignedVersionMismatch { .. }
        | Error::MissingSignedVersion => Some(UpdateRefusal::BadSignature),
        Error::TargetNotFound(_) | Error::TargetsNotFound(_) => {
            Some(UpdateRefusal::NoBuildForPlatform)
        }
        Error::InvalidUpdaterFormat | Error::BinaryNotFoundInArchive => {
            Some(UpdateRefusal::NotAPackage)
        }
        // The body ended before its announced length (the connection dropped mid-download).
        Error::Reqwest(e) if e.is_body() || e.is_decode() => Some(UpdateRefusal::TruncatedDownload),
        _ => None,
    }
}

#[cfg(test)]
#[path = "update_tests.rs"]
mod tests;
#[cfg(test)]
#[path = "update_tests_server.rs"]
mod tests_server;
