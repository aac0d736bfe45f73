//! The remote targets: a WebDAV folder and an S3-compatible bucket, built as OpenDAL operators
//! from what the person gave (a URL without credentials, the user name or access key id, the
//! password or secret key), and OpenDAL's errors told as what the server said and how to fix
//! it. Credentials go into the operator only: never into `shown`, an error or a log line.

use opendal::Operator;

use crate::error::{Result, SyncError};
use crate::target::DalTarget;

/// An S3-compatible bucket (AWS, MinIO, Garage, Backblaze B2, Cloudflare R2…).
#[derive(Clone, Copy)]
pub struct S3Place<'a> {
    /// The service's endpoint URL (`https://s3.eu-central-1.amazonaws.com`, `http://127.0.0.1:9000`).
    pub endpoint: &'a str,
    pub bucket: &'a str,
    /// The region (`us-east-1` when the service has none).
    pub region: &'a str,
    pub access_key_id: &'a str,
    pub secret_access_key: &'a str,
    /// A prefix inside the bucket (`vibelife/`), empty for its top.
    pub root: &'a str,
}

impl std::fmt::Debug for S3Place<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "S3Place({})", shown_s3(self.endpoint, self.bucket, self.root))
    }
}

/// How an S3 target is shown: `s3://bucket/root at endpoint`.
pub fn shown_s3(endpoint: &str, bucket: &str, root: &str) -> String {
    let root = root.trim_matches('/');
    let path = if root.is_empty() { String::new() } else { format!("/{root}") };
    format!("s3://{bucket}{path} at {}", endpoint.trim_end_matches('/'))
}

/// `url` checked: http or https, a host, no credentials, query or fragment in it.
fn checked_url(url: &str, what: &str) -> Result<String> {
    let bad = |why: &str| SyncError::BadTarget { target: what.into(), why: why.into() };
    let parsed = url::Url::parse(url.trim())
        .map_err(|e| bad(&format!("{url:?} is not a URL ({e}); write it as https://host/path")))?;
    if !matches!(parsed.scheme(), "http" | "https") {
        return Err(bad("only http:// and https:// URLs are supported"));
    }
    if parsed.host_str().is_none_or(str::is_empty) {
        return Err(bad("the URL names no server"));
    }
    if !parsed.username().is_empty() || parsed.password().is_some() {
        return Err(bad(
            "the URL holds a user name or password: give the user with --user and the password \
             in VIBE_SYNC_PASSWORD, so it goes to the keychain and not into the settings",
        ));
    }
    if parsed.query().is_some() || parsed.fragment().is_some() {
        return Err(bad("the URL has a query or fragment (?… or #…): remove it"));
    }
    Ok(parsed.as_str().trim_end_matches('/').to_string())
}

fn provider() {
    // Already installed (by an earlier target or the process) is fine.
    let _ = rustls::crypto::ring::default_provider().install_default();
}

impl DalTarget {
    /// A WebDAV folder at `url` (which must exist), with basic authentication.
    pub fn webdav(url: &str, user: &str, password: &str) -> Result<Self> {
        let endpoint = checked_url(url, "the WebDAV URL")?;
        provider();
        let mut builder = opendal::services::Webdav::default().endpoint(&endpoint).root("/");
        if !user.is_empty() {
            builder = builder.username(user).password(password);
        }
        let op = Operator::new(builder)
            .map_err(|e| SyncError::BadTarget { target: endpoint.clone(), why: e.to_string() })?
            .finish();
        Ok(Self::new(op, endpoint))
    }

    /// An S3-compatible bucket (which must exist), path-style, with these credentials only
    /// (no AWS configuration files, environment or instance metadata are read).
    pub fn s3(place: &S3Place<'_>) -> Result<Self> {
        let endpoint = checked_url(place.endpoint, "the S3 endpoint URL")?;
        let shown = shown_s3(&endpoint, place.bucket, place.root);
        let bad = |why: &str| SyncError::BadTarget { target: shown.clone(), why: why.into() };
        if place.bucket.trim().is_empty() {
            return Err(bad("no bucket is named: give it with --bucket"));
        }
        if place.access_key_id.is_empty() || place.secret_access_key.is_empty() {
            return Err(bad(
                "an access key id (--access-key-id) and its secret key (VIBE_SYNC_SECRET_KEY) are needed",
            ));
        }
        provider();
        let region = if place.region.trim().is_empty() { "us-east-1" } else { place.region.trim() };
        let root = format!("/{}", place.root.trim_matches('/'));
        let builder = opendal::services::S3::default()
            .endpoint(&endpoint)
            .bucket(place.bucket.trim())
            .region(region)
            .root(&root)
            .access_key_id(place.access_key_id)
            .secret_access_key(place.secret_access_key)
            .disable_config_load()
            .disable_ec2_metadata();
        let op = Operator::new(builder).map_err(|e| bad(&e.to_string()))?.finish();
        Ok(Self::new(op, shown))
    }
}
