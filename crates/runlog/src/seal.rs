//! The sealed form of run files (docs/privacy.md#run-folders, docs/audit.md#sealed-logs): in
//! an encrypted data folder a run's `events.jsonl` and large tool outputs are written as a
//! header line naming the format and the key (`#vibelife-sealed v2 key=<id>`), then records,
//! one per line, each the XChaCha20-Poly1305 ciphertext of one or more whole JSON lines. In
//! v2 (written now) the records are chained (`chain`): each one's associated data holds its
//! number and the tag of the record before, and a closing record ends a file closed cleanly.
//! v1 files (written before chaining, and clear logs sealed when a folder was encrypted) hold
//! base64 of a 24-byte nonce and the ciphertext, bound only to the run id and file name.
//! Base64 has no newline, so a record cut short by a kill is a last line without its newline,
//! exactly like a cut JSON line: it is dropped when read. This module owns the file format, sealing,
//! telling clear from sealed bytes and opening a file back into its clear text (the key
//! itself is `run_key`'s); it does no file IO.

use std::fmt;
use std::sync::Arc;

use base64::Engine as _;
use base64::engine::general_purpose::STANDARD_NO_PAD as B64;

use super::chain::{self, Link};
use super::run_key::{ID_BYTES, NONCE_LEN, RunKey, TAG_LEN};

/// The start of a sealed file's header line: before chaining (v1), chained (v2). Both have
/// the same length.
const MAGIC: &str = "#vibelife-sealed v1 key=";
const MAGIC_CHAINED: &str = "#vibelife-sealed v2 key=";
/// Hex digits of the key id in the header.
const KEY_ID_HEX: usize = ID_BYTES * 2;
/// The whole header line, newline included.
pub const HEADER_LEN: usize = MAGIC.len() + KEY_ID_HEX + 1;
/// The header line of a file sealed with `key`, chained (v2) or not (v1).
fn header(key: &RunKey, chained: bool) -> String {
    format!("{}{}\n", if chained { MAGIC_CHAINED } else { MAGIC }, key.id())
}

/// The clear text of one v1 record (base64 of the nonce and the ciphertext).
fn open_record(key: &RunKey, aad: &[u8], line: &[u8]) -> Option<Vec<u8>> {
    let bytes = B64.decode(line).ok()?;
    if bytes.len() < NONCE_LEN + TAG_LEN {
        return None;
    }
    let (nonce, sealed) = bytes.split_at(NONCE_LEN);
    key.decrypt(nonce, aad, sealed)
}

/// The associated data of every record of the v1 file `file` of run `run_id`.
pub(crate) fn aad(run_id: &str, file: &str) -> Vec<u8> {
    let mut aad = b"vibelife run file v1\0".to_vec();
    aad.extend_from_slice(run_id.as_bytes());
    aad.push(0);
    aad.extend_from_slice(file.as_bytes());
    aad
}

/// Seals the records of one file being written. Nonces are a random 16-byte prefix drawn at
/// creation and an 8-byte counter: unique without a system call per record (one writer holds
/// the file's lock at a time, and each draws its own prefix). A chained sealer (v2) keeps the
/// chain's place; an unchained one (v1) only appends to a file written before chaining.
pub(crate) struct Sealer {
    key: Arc<RunKey>,
    /// v2: the chain's context (`chain::context`); v1: the whole associated data (`aad`).
    context: Vec<u8>,
    prefix: [u8; 16],
    counter: u64,
    /// v2: the place of the next record; `None`: v1.
    link: Option<Link>,
}

impl Sealer {
    /// A sealer of a new chained (v2) file.
    pub(crate) fn new(key: Arc<RunKey>, run_id: &str, file: &str) -> std::io::Result<Self> {
        Self::resume(key, run_id, file, Link::START)
    }

    /// A sealer appending to a chained (v2) file whose next record is at `link`.
    pub(crate) fn resume(
        key: Arc<RunKey>,
        run_id: &str,
        file: &str,
        link: Link,
    ) -> std::io::Result<Self> {
        let mut sealer = Self::unchained(key, run_id, file)?;
        sealer.context = chain::context(run_id, file);
        sealer.link = Some(link);
        Ok(sealer)
    }

    /// A sealer of v1 records: a file written before chaining, appended to, or clear text
    /// sealed as it is (its order was never protected, and its file must not claim it was).
    pub(crate) fn unchained(key: Arc<RunKey>, run_id: &str, file: &str) -> std::io::Result<Self> {
        let mut prefix = [0u8; 16];
        getrandom::fill(&mut prefix).map_err(|e| std::io::Error::other(e.to_string()))?;
        Ok(Self { key, context: aad(run_id, file), prefix, counter: 0, link: None })
    }

    /// The header line of the file this sealer writes.
    pub(crate) fn header(&self) -> String {
        header(&self.key, self.link.is_some())
    }

    fn next_nonce(&mut self) -> [u8; NONCE_LEN] {
        let mut nonce = [0u8; NONCE_LEN];
        nonce[..16].copy_from_slice(&self.prefix);
        nonce[16..].copy_from_slice(&self.counter.to_le_bytes());
        self.counter += 1;
        nonce
    }

    /// One record: `plain` (whole lines) sealed, base64, and a newline.
    pub(crate) fn seal(&mut self, plain: &[u8]) -> Vec<u8> {
        self.record(chain::KIND_LINES, plain)
    }

    /// The closing record of a chained file (`None` for v1, which has none).
    pub(crate) fn close(&mut self) -> Option<Vec<u8>> {
        let records = self.link?.seq;
        Some(self.record(chain::KIND_END, &chain::end_text(records)))
    }

    fn record(&mut self, kind: u8, plain: &[u8]) -> Vec<u8> {
        let nonce = self.next_nonce();
        if let Some(link) = self.link {
            let (line, next) = chain::seal(&self.key, &self.context, kind, link, &nonce, plain);
            self.link = Some(next);
            return line;
        }
        let body = self.key.encrypt(&nonce, &self.context, plain);
        let mut raw = Vec::with_capacity(NONCE_LEN + body.len());
        raw.extend_from_slice(&nonce);
        raw.extend_from_slice(&body);
        let mut line = B64.encode(raw).into_bytes();
        line.push(b'\n');
        line
    }
}

/// What the start of a run file says about its form.
#[derive(Debug, PartialEq, Eq)]
pub(crate) enum Form<'a> {
    /// Nothing, or a header cut short by a kill before its first record: an empty file.
    Empty,
    /// Clear JSON lines (a clear data folder, or a run from before sealing).
    Clear,
    /// Sealed with the key named `key_id`; the records follow the header, chained (v2) or
    /// not (v1).
    Sealed { key_id: &'a str, chained: bool },
}

/// The form of a run file from its bytes.
pub(crate) fn form(bytes: &[u8]) -> Form<'_> {
    if bytes.is_empty() {
        return Form::Empty;
    }
    if bytes.len() < HEADER_LEN {
        let start = &bytes[..bytes.len().min(MAGIC.len())];
        let cut_header = bytes.iter().all(|b| *b != b'\n')
            && (MAGIC.as_bytes().starts_with(start) || MAGIC_CHAINED.as_bytes().starts_with(start));
        return if cut_header { Form::Empty } else { Form::Clear };
    }
    match std::str::from_utf8(&bytes[..HEADER_LEN]) {
        Ok(head) if head.ends_with('\n') && head.starts_with(MAGIC) => {
            Form::Sealed { key_id: &head[MAGIC.len()..HEADER_LEN - 1], chained: false }
        }
        Ok(head) if head.ends_with('\n') && head.starts_with(MAGIC_CHAINED) => {
            Form::Sealed { key_id: &head[MAGIC.len()..HEADER_LEN - 1], chained: true }
        }
        _ => Form::Clear,
    }
}

/// A sealed file opened back into its clear text.
#[derive(Debug, Default)]
pub(crate) struct Opened {
    /// The clear text, record after record (each record's lines end with a newline, except a
    /// line the writer was killed in the middle of, which stays last and unfinished).
    pub text: Vec<u8>,
    /// v1: 1-based line numbers (of the sealed file) of records that failed to open: damaged.
    pub damaged: Vec<usize>,
    /// The last record was cut short (a kill while writing it) and was dropped.
    pub cut_last: bool,
    /// v2: how the chain ends (`None`: a v1 file, written before chaining).
    pub chain: Option<chain::End>,
}

/// Why a sealed file cannot be opened at all.
#[derive(Debug, PartialEq, Eq)]
pub(crate) enum Refused {
    /// No key: the folder's key is not loaded (or encryption is off there).
    NoKey { key_id: String },
    /// Sealed with another key (a run folder copied from another data folder).
    OtherKey { key_id: String, ours: String },
}

impl fmt::Display for Refused {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::NoKey { key_id } => write!(
                f,
                "it is encrypted (key {key_id}) and this data folder's key of the run folders is not loaded; \
                 open it with VibeLife on the data folder it belongs to"
            ),
            Self::OtherKey { key_id, ours } => write!(
                f,
                "it is encrypted with another key ({key_id}, this data folder's is {ours}): it was copied \
                 from another data folder; read it there, or restore that folder's backup"
            ),
        }
    }
}

/// Open the sealed file `bytes` (its header included) with `key`: the file `file` of run
/// `run_id`.
pub(crate) fn open(
    bytes: &[u8],
    key: Option<&RunKey>,
    run_id: &str,
    file: &str,
) -> Result<Opened, Refused> {
    let Form::Sealed { key_id, chained } = form(bytes) else {
        return Ok(Opened { text: bytes.to_vec(), ..Opened::default() });
    };
    let key = match key {
        None => return Err(Refused::NoKey { key_id: key_id.to_string() }),
        Some(key) if key.id() != key_id => {
            return Err(Refused::OtherKey {
                key_id: key_id.to_string(),
                ours: key.id().to_string(),
            });
        }
        Some(key) => key,
    };
    let body = &bytes[HEADER_LEN..];
    if chained {
        let walk = chain::walk(key, &chain::context(run_id, file), body);
        let cut_last = matches!(walk.end, chain::End::Open { cut_line: Some(_), .. });
        return Ok(Opened {
            text: walk.text,
            damaged: Vec::new(),
            cut_last,
            chain: Some(walk.end),
        });
    }
    let aad = aad(run_id, file);
    let finished = body.last().is_none_or(|b| *b == b'\n');
    let records: Vec<&[u8]> = body.split(|b| *b == b'\n').collect();
    let count = if finished { records.len() - 1 } else { records.len() };
    let mut opened = Opened::default();
    for (i, record) in records.into_iter().take(count).enumerate() {
        if record.is_empty() {
            continue;
        }
        let last = i + 1 == count;
        match open_record(key, &aad, record) {
            Some(plain) => {
                // Lines of records before this one are whole; a cut line stays only last.
                if opened.text.last().is_some_and(|b| *b != b'\n') {
                    opened.text.push(b'\n');
                }
                opened.text.extend_from_slice(&plain);
            }
            None if last && !finished => opened.cut_last = true,
            // The header is line 1.
            None => opened.damaged.push(i + 2),
        }
    }
    Ok(opened)
}

/// `plain` as a whole sealed file: the header, one record and, chained, the closing record (a
/// large tool output; a clear file being sealed, with an unchained sealer).
pub(crate) fn seal_whole(sealer: &mut Sealer, plain: &[u8]) -> Vec<u8> {
    let mut out = sealer.header().into_bytes();
    if !plain.is_empty() {
        out.extend_from_slice(&sealer.seal(plain));
    }
    if let Some(end) = sealer.close() {
        out.extend_from_slice(&end);
    }
    out
}

#[cfg(test)]
#[path = "seal_tests.rs"]
mod tests;
