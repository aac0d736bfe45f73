//! Saved prompt states (docs/local-model.md#saved-states): after a turn the engine keeps the
//! conversation's KV cache on disk so that the same conversation, resumed in a new process,
//! starts from it instead of a full prefill. This module owns the files: where they live
//! (`<data dir>/kv-states/<name>.kv`, one per conversation, named by a hash of its id), their
//! sealed format, the cap on their total size (oldest dropped), and deleting one. It never
//! holds a clear state on disk: every byte after the header is sealed by a [`StateSeal`] (the
//! data folder's run key, provided by the app) and bound to the model file's identity and the
//! conversation. It does not touch llama.cpp (the engine's `state_io` turns states into bytes
//! and back) and knows nothing of settings.
//!
//! A file that does not open — another key, another model, another conversation's name, cut
//! short, damaged — is ignored (logged, never trusted): the turn does a full prefill.

use std::fmt;
use std::io::Read as _;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use sha2::{Digest as _, Sha256};

/// The folder of saved states inside the data dir.
pub const STATES_DIR: &str = "kv-states";
/// The default cap on the total size of the saved states (1 GiB); the oldest are dropped.
pub const DEFAULT_STATES_CAP_BYTES: u64 = 1 << 30;
/// The first line of every state file names the format, the key and the model.
const MAGIC: &str = "#vibelife-kvstate v1";
/// Bytes of the model file's start read into its identity.
const IDENTITY_HEAD_BYTES: u64 = 1 << 20;

/// Seals and opens whole files with the data folder's key (the app implements it over its run
/// key's AEAD, `vibe_runlog::RunKey::seal_blob`); the engine never sees the key itself.
pub trait StateSeal: Send + Sync {
    /// A short public name of the key, written in each file's header.
    fn key_id(&self) -> &str;
    /// `plain` sealed and bound to `aad`; `None` when sealing is impossible right now.
    fn seal(&self, aad: &[u8], plain: &[u8]) -> Option<Vec<u8>>;
    /// The clear text of `sealed` when it authenticates with `aad` under this key.
    fn open(&self, aad: &[u8], sealed: &[u8]) -> Option<Vec<u8>>;
}

/// Where and how the engine keeps saved states: the folder, the seal, the size cap.
#[derive(Clone)]
pub struct SavedStates {
    dir: PathBuf,
    seal: Arc<dyn StateSeal>,
    cap_bytes: u64,
}

impl PartialEq for SavedStates {
    fn eq(&self, other: &Self) -> bool {
        self.dir == other.dir
            && self.seal.key_id() == other.seal.key_id()
            && self.cap_bytes == other.cap_bytes
    }
}

impl fmt::Debug for SavedStates {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("SavedStates")
            .field("dir", &self.dir)
            .field("key", &self.seal.key_id())
            .field("cap_bytes", &self.cap_bytes)
            .finish()
    }
}

/// A state read back: the tokens whose KV state it holds, in order, and llama.cpp's bytes of
/// that sequence.
#[derive(Debug, PartialEq, Eq)]
pub struct SavedState {
    pub tokens: Vec<i32>,
    pub state: Vec<u8>,
}

/// Why a state file was not used (logged; the turn does a full prefill).
#[derive(Debug, PartialEq, Eq)]
pub enum Ignored {
    /// No file for this conversation.
    Missing,
    /// Sealed with another data folder's key.
    OtherKey,
    /// Saved for another model file (or the same file changed).
    OtherModel,
    /// Not a state file, cut short, damaged, or the file of another conversation.
    Unreadable(String),
}

impl SavedStates {
    /// The saved states of the data folder `data_dir`, sealed with `seal`, at most
    /// `cap_bytes` in all.
    pub fn new(data_dir: &Path, seal: Arc<dyn StateSeal>, cap_bytes: u64) -> Self {
        Self { dir: data_dir.join(STATES_DIR), seal, cap_bytes }
    }

    /// The folder holding the files.
    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// The state saved for conversation `key` by the model `model_id`, if one opens.
    pub fn load(&self, key: &str, model_id: &str) -> Result<SavedState, Ignored> {
        let path = state_file(&self.dir, key);
        let bytes = match std::fs::read(&path) {
            Ok(bytes) => bytes,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Err(Ignored::Missing),
            Err(e) => return Err(Ignored::Unreadable(e.to_string())),
        };
        let Some(newline) = bytes.iter().position(|b| *b == b'\n') else {
            return Err(Ignored::Unreadable("no header".into()));
        };
        let header = std::str::from_utf8(&bytes[..newline])
            .map_err(|_| Ignored::Unreadable("the header is not text".into()))?;
        let (key_id, model) = parse_header(header)
            .ok_or_else(|| Ignored::Unreadable("not a saved state's header".into()))?;
        if key_id != self.seal.key_id() {
            return Err(Ignored::OtherKey);
        }
        if model != model_id {
            return Err(Ignored::OtherModel);
        }
        let aad = aad(key, model_id, key_id);
        let plain = self.seal.open(&aad, &bytes[newline + 1..]).ok_or_else(|| {
            Ignored::Unreadable("it does not open (cut short, damaged, or moved)".into())
        })?;
        decode(&plain).ok_or_else(|| Ignored::Unreadable("its contents are malformed".into()))
    }

    /// Save `tokens` and their `state` as conversation `key`'s, replacing the one before, then
    /// drop the oldest files while all of them are over the cap. A state larger than the cap
    /// alone is not saved. Errors are the caller's to log (saving is never essential).
    pub fn save(
        &self,
        key: &str,
        model_id: &str,
        tokens: &[i32],
        state: &[u8],
    ) -> Result<(), String> {
        let mut plain = Vec::with_capacity(4 + tokens.len() * 4 + state.len());
        plain.extend_from_slice(
            &u32::try_from(tokens.len()).map_err(|e| e.to_string())?.to_le_bytes(),
        );
        for token in tokens {
            plain.extend_from_slice(&token.to_le_bytes());
        }
        plain.extend_from_slice(state);
        if plain.len() as u64 > self.cap_bytes {
            return Err(format!(
                "the state ({} bytes) is larger than the cap on saved states ({} bytes)",
                plain.len(),
                self.cap_bytes
            ));
        }
        let key_id = self.seal.key_id();
        let sealed = self
            .seal
            .seal(&aad(key, model_id, key_id), &plain)
            .ok_or("the state could not be sealed (no random bytes)")?;
        drop(plain);
        std::fs::create_dir_all(&self.dir).map_err(|e| format!("{}: {e}", self.dir.display()))?;
        let path = state_file(&self.dir, key);
        let tmp = path.with_extension("kv.tmp");
        let header = format!("{MAGIC} key={key_id} model={model_id}\n");
        // Written beside and renamed over: a crash leaves the old state or the new, whole.
        std::fs::File::create(&tmp)
            .and_then(|mut file| {
                use std::io::Write as _;
                file.write_all(header.as_bytes())?;
                file.write_all(&sealed)
            })
            .map_err(|e| {
                let _ = std::fs::remove_file(&tmp);
                format!("{}: {e}", tmp.display())
            })?;
        drop(sealed);
        std::fs::rename(&tmp, &path).map_err(|e| format!("{}: {e}", path.display()))?;
        self.prune(&path);
        Ok(())
    }

    /// Drop the oldest state files (by modification time) while the folder is over the cap;
    /// `keep` (the one just written) goes last.
    fn prune(&self, keep: &Path) {
        let Ok(entries) = std::fs::read_dir(&self.dir) else { return };
        let mut files: Vec<(std::time::SystemTime, u64, PathBuf)> = entries
            .flatten()
            .filter_map(|e| {
                let meta = e.metadata().ok()?;
                meta.is_file().then(|| {
                    (meta.modified().unwrap_or(std::time::UNIX_EPOCH), meta.len(), e.path())
                })
            })
            .collect();
        let mut total: u64 = files.iter().map(|(_, len, _)| len).sum();
        files.sort_by_key(|(modified, _, path)| (path == keep, *modified));
        for (_, len, path) in files {
            if total <= self.cap_bytes {
                break;
            }
            match std::fs::remove_file(&path) {
                Ok(()) => {
                    tracing::info!(file = %path.display(), "saved prompt state dropped (over the cap)");
                    total -= len;
                }
                Err(e) => {
                    tracing::warn!(file = %path.display(), "cannot drop a saved prompt state: {e}")
                }
            }
        }
    }
}

/// The file of conversation `key`'s saved state in `dir` (a hash of the key: no id in a name).
pub fn state_file(dir: &Path, key: &str) -> PathBuf {
    let mut hash = Sha256::new();
    hash.update(b"vibelife kv state name\0");
    hash.update(key.as_bytes());
    dir.join(format!("{}.kv", hex::encode(&hash.finalize()[..16])))
}

/// A cheap identity of a model file: its size, modification time and first megabyte, hashed.
/// A state saved for one file is refused for another, or for the same file once changed.
pub fn model_identity(path: &Path) -> std::io::Result<String> {
    let meta = std::fs::metadata(path)?;
    let mtime = meta
        .modified()
        .ok()
        .and_then(|t| t.duration_since(std::time::UNIX_EPOCH).ok())
        .map_or(0, |d| d.as_nanos());
    let mut head = Vec::new();
    std::fs::File::open(path)?.take(IDENTITY_HEAD_BYTES).read_to_end(&mut head)?;
    let mut hash = Sha256::new();
    hash.update(b"vibelife model identity\0");
    hash.update(meta.len().to_le_bytes());
    hash.update(mtime.to_le_bytes());
    hash.update(&head);
    Ok(hex::encode(&hash.finalize()[..16]))
}

/// What the seal binds a file to: the format, the conversation, the model and the key.
fn aad(key: &str, model_id: &str, key_id: &str) -> Vec<u8> {
    let mut aad = b"vibelife kv state v1\0".to_vec();
    for part in [key, model_id, key_id] {
        aad.extend_from_slice(part.as_bytes());
        aad.push(0);
    }
    aad
}

/// The key id and model identity of a header line.
fn parse_header(line: &str) -> Option<(&str, &str)> {
    let rest = line.strip_prefix(MAGIC)?.strip_prefix(" key=")?;
    let (key_id, model) = rest.split_once(" model=")?;
    Some((key_id, model))
}

/// The tokens and state of a clear payload: a token count, the tokens (i32, little-endian),
/// then llama.cpp's bytes.
fn decode(plain: &[u8]) -> Option<SavedState> {
    let count = u32::from_le_bytes(plain.get(..4)?.try_into().ok()?) as usize;
    let end = 4usize.checked_add(count.checked_mul(4)?)?;
    let tokens = plain
        .get(4..end)?
        .chunks_exact(4)
        .map(|c| i32::from_le_bytes([c[0], c[1], c[2], c[3]]))
        .collect();
    let state = plain[end..].to_vec();
    if state.is_empty() {
        return None;
    }
    Some(SavedState { tokens, state })
}

#[cfg(test)]
#[path = "saved_state_tests.rs"]
pub(crate) mod tests;
