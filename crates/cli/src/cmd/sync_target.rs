//! The target flags of `vibe sync setup|join`: `--folder DIR | --webdav URL | --s3 URL` with
//! `--user`, `--bucket`, `--region`, `--access-key-id`, `--prefix`, turned into the wire's
//! target; the password or secret key from `VIBE_SYNC_PASSWORD` / `VIBE_SYNC_SECRET_KEY` or
//! typed at the terminal, never a flag (it would stay in the shell's history).

use clap::Args;
use vibe_wire::settings::SyncTarget;
use zeroize::Zeroizing;

/// The environment variable holding a WebDAV target's password.
pub const PASSWORD_ENV: &str = "VIBE_SYNC_PASSWORD";
/// The environment variable holding an S3 target's secret access key.
pub const SECRET_KEY_ENV: &str = "VIBE_SYNC_SECRET_KEY";

#[derive(Debug, Args)]
#[group(skip)]
pub struct TargetArgs {
    /// A folder (synced between your devices by Syncthing, Nextcloud, Dropbox…).
    #[arg(long, required_unless_present_any = ["webdav", "s3"], conflicts_with_all = ["webdav", "s3"])]
    folder: Option<String>,
    /// A WebDAV folder's URL (Nextcloud, ownCloud, a NAS), which must exist; with --user,
    /// the password in VIBE_SYNC_PASSWORD or typed when asked.
    #[arg(long, conflicts_with = "s3")]
    webdav: Option<String>,
    /// An S3-compatible service's endpoint URL; with --bucket, --access-key-id, the secret
    /// key in VIBE_SYNC_SECRET_KEY or typed when asked.
    #[arg(long)]
    s3: Option<String>,
    /// The WebDAV user name.
    #[arg(long, requires = "webdav")]
    user: Option<String>,
    /// The S3 bucket (which must exist).
    #[arg(long, requires = "s3")]
    bucket: Option<String>,
    /// The S3 region.
    #[arg(long, requires = "s3", default_value = "us-east-1")]
    region: String,
    /// The S3 access key id.
    #[arg(long, requires = "s3")]
    access_key_id: Option<String>,
    /// A prefix inside the S3 bucket (e.g. vibelife/), to share a bucket with other data.
    #[arg(long, requires = "s3", default_value = "")]
    prefix: String,
}

impl TargetArgs {
    /// The target, and its secret when it needs one (from the environment or the terminal).
    pub fn resolve(self) -> anyhow::Result<(SyncTarget, Option<Zeroizing<String>>)> {
        let target = if let Some(path) = self.folder {
            SyncTarget::Folder { path }
        } else if let Some(url) = self.webdav {
            SyncTarget::Webdav { url, user: self.user.unwrap_or_default() }
        } else if let Some(endpoint) = self.s3 {
            let need = |flag: &str| anyhow::anyhow!("--s3 needs {flag}");
            SyncTarget::S3 {
                endpoint,
                bucket: self.bucket.ok_or_else(|| need("--bucket NAME"))?,
                region: self.region,
                access_key_id: self.access_key_id.ok_or_else(|| need("--access-key-id ID"))?,
                root: self.prefix,
            }
        } else {
            anyhow::bail!("name the target: --folder DIR, --webdav URL or --s3 URL");
        };
        let secret = match &target {
            _ if !target.needs_secret() => None,
            SyncTarget::S3 { .. } => Some(secret(SECRET_KEY_ENV, "S3 secret access key")?),
            _ => Some(secret(PASSWORD_ENV, "WebDAV password")?),
        };
        Ok((target, secret))
    }
}

/// The secret in `env`, else typed at the terminal; an error saying how to give it otherwise.
fn secret(env: &str, what: &str) -> anyhow::Result<Zeroizing<String>> {
    if let Ok(value) = std::env::var(env)
        && !value.is_empty()
    {
        return Ok(Zeroizing::new(value));
    }
    match crate::passphrase::ask_secret(&format!("{what}: "))? {
        Some(typed) if !typed.is_empty() => Ok(typed),
        _ => anyhow::bail!(
            "the {what} is needed: set {env} (or run in a terminal to type it); it is kept in \
             the keychain, never in the settings"
        ),
    }
}
