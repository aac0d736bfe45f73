//! The chained records of a sealed run file (format v2, docs/audit.md#sealed-logs): each
//! record line is base64 of `kind (1) | seq (8, big-endian) | prev (16) | nonce (24) |
//! XChaCha20-Poly1305 ciphertext and tag`, where `seq` counts the file's records from 0,
//! `prev` is the tag of the record before (zeros for the first) and the AEAD's associated data
//! is the file's context (run id, file name) followed by `kind | seq | prev`. So every record
//! is bound to its place: a dropped, reordered, replaced or foreign record no longer fits the
//! chain. A closing record (`kind` `E`, its clear text `{"records":N}`, N = its own `seq`)
//! is written when the file is closed cleanly; a file without one was interrupted or cut.
//! This module owns encoding and walking records; the key and sealing are `seal`'s, file IO
//! the writer's and readers'.

use std::fmt;

use base64::Engine as _;
use base64::engine::general_purpose::STANDARD_NO_PAD as B64;

use super::run_key::{NONCE_LEN, RunKey, TAG_LEN};

/// A record of whole JSON lines.
pub(crate) const KIND_LINES: u8 = b'L';
/// The closing record.
pub(crate) const KIND_END: u8 = b'E';
const PREFIX_LEN: usize = 1 + 8 + TAG_LEN;

/// Where the chain stands: the `seq` of the next record and the tag it must follow.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Link {
    pub seq: u64,
    pub prev: [u8; TAG_LEN],
}

impl Link {
    pub(crate) const START: Link = Link { seq: 0, prev: [0; TAG_LEN] };
}

/// The associated data base of every record of file `file` of run `run_id`.
pub(crate) fn context(run_id: &str, file: &str) -> Vec<u8> {
    let mut aad = b"vibelife run file v2\0".to_vec();
    aad.extend_from_slice(run_id.as_bytes());
    aad.push(0);
    aad.extend_from_slice(file.as_bytes());
    aad.push(0);
    aad
}

fn prefix(kind: u8, link: Link) -> [u8; PREFIX_LEN] {
    let mut out = [0u8; PREFIX_LEN];
    out[0] = kind;
    out[1..9].copy_from_slice(&link.seq.to_be_bytes());
    out[9..].copy_from_slice(&link.prev);
    out
}

/// One record line (newline included) sealing `plain` at `link`; the link after it.
pub(crate) fn seal(
    key: &RunKey,
    context: &[u8],
    kind: u8,
    link: Link,
    nonce: &[u8; NONCE_LEN],
    plain: &[u8],
) -> (Vec<u8>, Link) {
    let head = prefix(kind, link);
    let mut aad = context.to_vec();
    aad.extend_from_slice(&head);
    let sealed = key.encrypt(nonce, &aad, plain);
    let mut tag = [0u8; TAG_LEN];
    if let Some(at) = sealed.len().checked_sub(TAG_LEN) {
        tag.copy_from_slice(&sealed[at..]);
    }
    let mut raw = Vec::with_capacity(PREFIX_LEN + NONCE_LEN + sealed.len());
    raw.extend_from_slice(&head);
    raw.extend_from_slice(nonce);
    raw.extend_from_slice(&sealed);
    let mut line = B64.encode(raw).into_bytes();
    line.push(b'\n');
    (line, Link { seq: link.seq + 1, prev: tag })
}

/// The clear text of the closing record after `records` records.
pub(crate) fn end_text(records: u64) -> Vec<u8> {
    format!("{{\"records\":{records}}}").into_bytes()
}

/// A record that opened: what it says about its place, and its clear text.
struct Record {
    kind: u8,
    seq: u64,
    prev: [u8; TAG_LEN],
    tag: [u8; TAG_LEN],
    plain: Vec<u8>,
}

/// Open one record line with its own stated place (checking the place is [`walk`]'s).
fn open(key: &RunKey, context: &[u8], line: &[u8]) -> Option<Record> {
    let raw = B64.decode(line).ok()?;
    if raw.len() < PREFIX_LEN + NONCE_LEN + TAG_LEN {
        return None;
    }
    let (head, rest) = raw.split_at(PREFIX_LEN);
    let (nonce, sealed) = rest.split_at(NONCE_LEN);
    let mut aad = context.to_vec();
    aad.extend_from_slice(head);
    let plain = key.decrypt(nonce, &aad, sealed)?;
    let mut seq = [0u8; 8];
    seq.copy_from_slice(&head[1..9]);
    let mut prev = [0u8; TAG_LEN];
    prev.copy_from_slice(&head[9..]);
    let mut tag = [0u8; TAG_LEN];
    tag.copy_from_slice(&sealed[sealed.len() - TAG_LEN..]);
    Some(Record { kind: head[0], seq: u64::from_be_bytes(seq), prev, tag, plain })
}

/// The first thing wrong in a chained file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Break {
    /// The line does not open with the key (changed, corrupted, or not a record of this file).
    Unreadable,
    /// Records are missing before this one.
    Missing { expected: u64, found: u64 },
    /// Records out of their places: `found` stands where `expected` belongs (which is
    /// elsewhere in the file).
    OutOfOrder { expected: u64, found: u64 },
    /// The right number, but it does not follow the record before it (spliced in from a copy).
    Spliced,
    /// A closing record whose count is not the records before it, or a kind unknown here.
    BadEnd,
}

impl fmt::Display for Break {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Unreadable => {
                write!(f, "the record there fails its authentication (it was changed or damaged)")
            }
            Self::Missing { expected, found } => write!(
                f,
                "records are missing before it (it is record {found}, record {expected} was expected)"
            ),
            Self::OutOfOrder { expected, found } => write!(
                f,
                "records are out of order (record {found} stands where record {expected} was expected)"
            ),
            Self::Spliced => {
                write!(f, "the record there does not follow on from the one before it")
            }
            Self::BadEnd => {
                write!(f, "the closing record there does not count the records before it")
            }
        }
    }
}

/// How a chained file ends.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum End {
    /// Every record in its place and the last one closes the file: whole.
    Closed { records: u64 },
    /// Every record in its place but no closing record (interrupted, still being written, or
    /// cut at a record's end); `cut_line`: the last line is a record cut short, dropped.
    Open { records: u64, cut_line: Option<usize> },
    /// The first problem, at 1-based line `line` of the file; `lines_after`: lines after it
    /// (not read).
    Broken { line: usize, problem: Break, lines_after: usize },
}

/// A chained file walked from its first record.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Walk {
    /// The clear text of the records before any problem, in order.
    pub text: Vec<u8>,
    pub end: End,
    /// Where a writer reopening the file continues: after the last record that opens, in
    /// file order.
    pub resume: Link,
}

/// Walk the records in `body` (the file after its header line; the header is line 1).
pub(crate) fn walk(key: &RunKey, context: &[u8], body: &[u8]) -> Walk {
    let finished = body.last().is_none_or(|b| *b == b'\n');
    let lines: Vec<&[u8]> = body.split(|b| *b == b'\n').collect();
    let count = if finished { lines.len() - 1 } else { lines.len() };
    let mut walk = Walk {
        text: Vec::new(),
        end: End::Open { records: 0, cut_line: None },
        resume: Link::START,
    };
    let mut expected = Link::START;
    // The count of the last closing record, while nothing follows it.
    let mut closed: Option<u64> = None;
    let mut broken: Option<(usize, Break, usize)> = None;
    for (i, line) in lines.into_iter().take(count).enumerate() {
        let number = i + 2;
        let last = i + 1 == count;
        if line.is_empty() {
            // A newline started after a failed write: it holds nothing (what the failed write
            // lost shows as a gap in the records after it).
            continue;
        }
        let Some(record) = open(key, context, line) else {
            if broken.is_none() {
                if last && !finished {
                    walk.end = End::Open { records: expected.seq, cut_line: Some(number) };
                    return walk;
                }
                broken = Some((number, Break::Unreadable, count - i - 1));
            }
            continue;
        };
        walk.resume = Link { seq: record.seq + 1, prev: record.tag };
        if let Some((_, problem, _)) = &mut broken {
            // The record that was missing stands later: they were moved, not lost.
            if let Break::Missing { expected, found } = *problem
                && record.seq == expected
            {
                *problem = Break::OutOfOrder { expected, found };
            }
            continue;
        }
        let problem = if record.seq > expected.seq {
            Some(Break::Missing { expected: expected.seq, found: record.seq })
        } else if record.seq < expected.seq {
            Some(Break::OutOfOrder { expected: expected.seq, found: record.seq })
        } else if record.prev != expected.prev {
            Some(Break::Spliced)
        } else if record.kind == KIND_END && record.plain != end_text(record.seq)
            || record.kind != KIND_END && record.kind != KIND_LINES
        {
            Some(Break::BadEnd)
        } else {
            None
        };
        if let Some(problem) = problem {
            broken = Some((number, problem, count - i - 1));
            continue;
        }
        expected = Link { seq: record.seq + 1, prev: record.tag };
        closed = (record.kind == KIND_END).then_some(record.seq);
        if record.kind == KIND_LINES {
            // Lines of records before this one are whole; a cut line stays only last.
            if walk.text.last().is_some_and(|b| *b != b'\n') {
                walk.text.push(b'\n');
            }
            walk.text.extend_from_slice(&record.plain);
        }
    }
    walk.end = match broken {
        Some((line, problem, lines_after)) => End::Broken { line, problem, lines_after },
        None => match closed {
            Some(records) => End::Closed { records },
            None => End::Open { records: expected.seq, cut_line: None },
        },
    };
    walk
}

#[cfg(test)]
#[path = "chain_tests.rs"]
mod tests;
