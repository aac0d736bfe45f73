//! The downloader: one catalogue entry into `<id>.gguf`, streamed to `<id>.gguf.part` (locked
//! while it runs, so a second download or a removal of the same model is refused). It
//! resumes a partial file with HTTP Range; a server that ignores Range (200) restarts the file
//! cleanly; 416 means the file is already whole (then it is verified); redirects are followed
//! (hubs send files from a CDN), ranged requests too. The SHA-256 and size are checked before
//! the file is renamed into place: a mismatch removes the partial file. It refuses up front
//! when the disk lacks room, reports progress through a callback and stops at once on cancel
//! (the partial file is kept: pulling again resumes). Choosing the catalogue is
//! `catalog.rs`'s; events for front ends are the core's.

use std::fs::{File, OpenOptions};
use std::io::{Read as _, Seek as _, SeekFrom};
use std::path::{Path, PathBuf};
use std::time::Duration;

use futures::StreamExt as _;
use reqwest::StatusCode;
use reqwest::header::{CONTENT_RANGE, RANGE};
use sha2::{Digest as _, Sha256};
use tokio::io::{AsyncSeekExt as _, AsyncWriteExt as _};
use tokio_util::sync::CancellationToken;

use crate::catalog::CatalogEntry;
use crate::dir::{Installed, ModelsDir};
use crate::fsutil::{ensure_space, is_disk_full, owner_only};
use crate::shown::{shown_url, without};
use crate::sidecar::{Sidecar, Source};
use crate::{ModelsError, now_rfc3339};

/// How far a download has got.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Progress {
    /// Bytes in the partial file (a resumed download starts above 0).
    pub received: u64,
    /// The file's size (the catalogue's).
    pub total: u64,
}

/// What a finished pull did.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Pulled {
    pub installed: Installed,
    /// Bytes kept from an earlier, interrupted download (0 for a fresh one).
    pub resumed_from: u64,
    /// The server ignored the Range request, so the file was downloaded again from the start.
    pub restarted: bool,
    /// The model was already installed; nothing was downloaded.
    pub already_installed: bool,
}

/// The HTTP client downloads use: redirects followed (at most 10), a connect timeout and a
/// read timeout (a stalled CDN fails instead of hanging; pulling again resumes).
pub fn http_client() -> reqwest::Client {
    reqwest::Client::builder()
        .user_agent(concat!("VibeLife/", env!("CARGO_PKG_VERSION")))
        .connect_timeout(Duration::from_secs(20))
        .read_timeout(Duration::from_secs(60))
        .redirect(reqwest::redirect::Policy::limited(10))
        .build()
        .unwrap_or_else(|_| reqwest::Client::new())
}

/// Download `entry` into `dir` (see the module header for the rules). `progress` is called
/// from the download's task; keep it short.
pub async fn pull(
    dir: &ModelsDir,
    entry: &CatalogEntry,
    client: &reqwest::Client,
    cancel: &CancellationToken,
    progress: &(dyn Fn(Progress) + Send + Sync),
) -> Result<Pulled, ModelsError> {
    pull_within(dir, entry, client, cancel, progress, None).await
}

/// [`pull`] on a disk with room for `room` bytes of the partial file (`None`: whatever the
/// disk has): a write past it fails as on a full disk. Tests fill the disk mid-download so.
pub(crate) async fn pull_within(
    dir: &ModelsDir,
    entry: &CatalogEntry,
    client: &reqwest::Client,
    cancel: &CancellationToken,
    progress: &(dyn Fn(Progress) + Send + Sync),
    room: Option<u64>,
) -> Result<Pulled, ModelsError> {
    let id = entry.id.as_str();
    crate::id::check_id(id)?;
    if let Ok(installed) = dir.get(id) {
        return Ok(Pulled {
            installed,
            resumed_from: 0,
            restarted: false,
            already_installed: true,
        });
    }
    dir.ensure()?;
    let part = dir.part_file(id);
    let total = entry.size_bytes;
    // Checked before anything is written: a download that cannot fit changes nothing.
    let kept = std::fs::metadata(&part).map(|m| m.len()).unwrap_or(0).min(total);
    ensure_space(dir.path(), total - kept)?;
    let file = OpenOptions::new()
        .create(true)
        .read(true)
        .write(true)
        .truncate(false)
        .open(&part)
        .map_err(|e| ModelsError::io("cannot create", &part, e))?;
    // Held until this function returns: the lock is what tells others a download runs.
    file.try_lock().map_err(|_| ModelsError::Busy { id: id.into() })?;
    owner_only(&part)?;
    let mut have = file.metadata().map_err(|e| ModelsError::io("cannot read", &part, e))?.len();
    if have > total {
        truncate(&file, &part)?;
        have = 0;
    }
    let resumed_from = have;
    let mut hasher = hash_prefix(&file, &part, have).await?;
    let mut restarted = false;
    progress(Progress { received: have, total });

    let url = entry.url.as_str();
    // What errors show: a mirror's URL may carry a token (userinfo, a query).
    let shown = shown_url(url);
    let network = |e: reqwest::Error| ModelsError::Network {
        id: id.into(),
        url: shown.clone(),
        message: without(&error_chain(&e), url, &shown),
    };
    let mut ranged = have > 0;
    let response = loop {
        let mut request = client.get(url);
        if ranged {
            request = request.header(RANGE, format!("bytes={have}-"));
        }
        let response = tokio::select! {
            biased;
            () = cancel.cancelled() => return Err(ModelsError::Cancelled { id: id.into() }),
            r = request.send() => r.map_err(network)?,
        };
        match response.status() {
            StatusCode::PARTIAL_CONTENT if ranged && range_start(&response) == Some(have) => {
                break Some(response);
            }
            StatusCode::RANGE_NOT_SATISFIABLE if ranged && have == total => break None,
            // A server that ignores Range sends the whole file: start it again.
            StatusCode::OK => {
                if have > 0 {
                    tracing::info!(
                        id,
                        have,
                        "the server ignored the range request; downloading again from the start"
                    );
                    truncate(&file, &part)?;
                    hasher = Sha256::new();
                    have = 0;
                    restarted = true;
                    progress(Progress { received: 0, total });
                }
                break Some(response);
            }
            // A range the server cannot serve from where this file stops: start again, once.
            StatusCode::PARTIAL_CONTENT | StatusCode::RANGE_NOT_SATISFIABLE if ranged => {
                truncate(&file, &part)?;
                hasher = Sha256::new();
                have = 0;
                restarted = true;
                ranged = false;
            }
            status => {
                return Err(ModelsError::HttpStatus {
                    id: id.into(),
                    url: shown.clone(),
                    status: status.as_u16(),
                });
            }
        }
    };

    if let Some(response) = response {
        let handle = file.try_clone().map_err(|e| ModelsError::io("cannot open", &part, e))?;
        let mut out = tokio::fs::File::from_std(handle);
        out.seek(SeekFrom::Start(have))
            .await
            .map_err(|e| ModelsError::io("cannot write", &part, e))?;
        let step = (total / 200).max(64 * 1024);
        let mut reported = have;
        let mut stream = response.bytes_stream();
        loop {
            let next = tokio::select! {
                biased;
                () = cancel.cancelled() => None,
                next = stream.next() => Some(next),
            };
            let chunk = match next {
                None => {
                    close(out).await;
                    return Err(ModelsError::Cancelled { id: id.into() });
                }
                Some(None) => break,
                Some(Some(Err(e))) => {
                    close(out).await;
                    return Err(network(e));
                }
                Some(Some(Ok(chunk))) => chunk,
            };
            if have + chunk.len() as u64 > total {
                drop(out);
                remove(&part);
                return Err(ModelsError::SizeMismatch {
                    id: id.into(),
                    expected: total,
                    actual: have + chunk.len() as u64,
                });
            }
            if let Err(e) = append(&mut out, &chunk, have, room).await {
                close(out).await;
                return Err(write_error(e, &part, have));
            }
            hasher.update(&chunk);
            have += chunk.len() as u64;
            if have - reported >= step || have == total {
                reported = have;
                progress(Progress { received: have, total });
            }
        }
        out.flush().await.map_err(|e| write_error(e, &part, have))?;
        out.sync_all().await.map_err(|e| write_error(e, &part, have))?;
        close(out).await;
    }
    if cancel.is_cancelled() {
        return Err(ModelsError::Cancelled { id: id.into() });
    }
    if have < total {
        return Err(ModelsError::Network {
            id: id.into(),
            url: shown.clone(),
            message: format!("the connection ended after {have} of {total} bytes"),
        });
    }
    let actual = hex::encode(hasher.finalize());
    if actual != entry.sha256 {
        drop(file);
        remove(&part);
        return Err(ModelsError::ChecksumMismatch {
            id: id.into(),
            expected: entry.sha256.clone(),
            actual,
        });
    }
    let target = dir.model_file(id);
    // Closed (and so unlocked) first: Windows cannot rename a file that is open.
    drop(file);
    std::fs::rename(&part, &target)
        .map_err(|e| ModelsError::io("cannot move into place", &target, e))?;
    let sidecar = Sidecar {
        id: id.into(),
        name: entry.name.clone(),
        source: Source::Catalog { url: entry.url.clone() },
        sha256: actual,
        size_bytes: total,
        added_at: now_rfc3339(),
        catalog: Some(entry.clone()),
    };
    sidecar.write(&dir.sidecar_file(id))?;
    Ok(Pulled { installed: dir.get(id)?, resumed_from, restarted, already_installed: false })
}

/// Append `chunk` to the partial file holding `have` bytes; past `room` (see [`pull_within`])
/// what fits is written and the rest fails as on a full disk.
async fn append(
    out: &mut tokio::fs::File,
    chunk: &[u8],
    have: u64,
    room: Option<u64>,
) -> std::io::Result<()> {
    let left = room.map_or(u64::MAX, |room| room.saturating_sub(have));
    let fits = usize::try_from(left).unwrap_or(usize::MAX).min(chunk.len());
    out.write_all(&chunk[..fits]).await?;
    if fits < chunk.len() {
        return Err(std::io::Error::from(std::io::ErrorKind::StorageFull));
    }
    Ok(())
}

/// Where a 206 answer's range starts (`Content-Range: bytes START-END/TOTAL`).
fn range_start(response: &reqwest::Response) -> Option<u64> {
    let value = response.headers().get(CONTENT_RANGE)?.to_str().ok()?;
    value.strip_prefix("bytes ")?.split('-').next()?.trim().parse().ok()
}

/// The SHA-256 state after the first `len` bytes of `file` (what an earlier download kept).
async fn hash_prefix(file: &File, part: &Path, len: u64) -> Result<Sha256, ModelsError> {
    if len == 0 {
        return Ok(Sha256::new());
    }
    let mut reader = file.try_clone().map_err(|e| ModelsError::io("cannot read", part, e))?;
    let part_path: PathBuf = part.to_path_buf();
    let hashed = tokio::task::spawn_blocking(move || -> std::io::Result<Sha256> {
        reader.seek(SeekFrom::Start(0))?;
        let mut hasher = Sha256::new();
        let mut limited = reader.take(len);
        let mut buf = vec![0u8; 1024 * 1024];
        loop {
            let n = limited.read(&mut buf)?;
            if n == 0 {
                break;
            }
            hasher.update(&buf[..n]);
        }
        Ok(hasher)
    })
    .await
    .map_err(|e| ModelsError::io("cannot read", part, std::io::Error::other(e)))?;
    hashed.map_err(|e| ModelsError::io("cannot read", part_path, e))
}

/// Close the appending handle now: wait for its writes still on a blocking thread, then drop
/// the descriptor. The `.part` lock is shared by every descriptor of the file, so a handle
/// closed later, in the background, would keep the next pull out ("already being downloaded").
async fn close(mut out: tokio::fs::File) {
    let _ = out.flush().await;
    drop(out.into_std().await);
}

fn truncate(file: &File, part: &Path) -> Result<(), ModelsError> {
    file.set_len(0).map_err(|e| ModelsError::io("cannot write", part, e))
}

fn remove(part: &Path) {
    if let Err(e) = std::fs::remove_file(part)
        && e.kind() != std::io::ErrorKind::NotFound
    {
        tracing::warn!(file = %part.display(), "cannot remove a partial download: {e}");
    }
}

fn write_error(err: std::io::Error, part: &Path, received: u64) -> ModelsError {
    if is_disk_full(&err) {
        ModelsError::DiskFull { path: part.to_path_buf(), received }
    } else {
        ModelsError::io("cannot write", part, err)
    }
}

/// A reqwest error with its causes (its own message rarely says what happened).
fn error_chain(err: &reqwest::Error) -> String {
    let mut message = err.to_string();
    let mut source = std::error::Error::source(err);
    while let Some(cause) = source {
        message.push_str(": ");
        message.push_str(&cause.to_string());
        source = cause.source();
    }
    message
}

#[cfg(test)]
#[path = "download_tests.rs"]
mod tests;
