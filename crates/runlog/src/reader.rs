//! Reading runs back from disk: one run's `events.jsonl` as envelopes plus the stored lines
//! (for replay and evals), the files of a run folder, and the runs present on disk. A last
//! line cut short by a killed process is reported as a notice, never an error; unreadable
//! lines elsewhere are skipped with a notice naming `path:line`. Sealed files (`seal`) are
//! opened with the data folder's key first, and a chained one is checked record by record
//! (`chain`): the events before the first damage are read and the damage is named
//! (`integrity`). Clear ones (a clear data folder, or runs from before sealing) are read as
//! they are.

use std::collections::BTreeMap;
use std::io::ErrorKind;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use serde::Serialize;
use vibe_wire::{Envelope, Event, StopReason};

use super::integrity::Integrity;
use super::{EVENTS_FILE, RUNS_DIR, RunFolders, RunKey, io_error, run_dir, seal};
use crate::RunLogError;

/// One run's event log as read from disk.
#[derive(Debug, Clone)]
pub struct RunLog {
    pub run_id: String,
    /// The `events.jsonl` read.
    pub path: PathBuf,
    /// The events in file order.
    pub events: Vec<Envelope>,
    /// The stored text of each event in `events` (same index), without the newline.
    pub lines: Vec<String>,
    /// The 1-based line number of a last line cut short (a kill mid-write), if any.
    pub truncated_line: Option<usize>,
    /// Lines that were not a readable event (damaged, or written by a newer VibeLife).
    pub skipped: Vec<SkippedLine>,
    /// The file is sealed: line numbers count the lines of its clear text, except for
    /// records that could not be decrypted, which count the file's lines.
    pub sealed: bool,
    /// What the file's form proves about its order and completeness.
    pub integrity: Integrity,
}

/// A line of `events.jsonl` that could not be read as an event.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct SkippedLine {
    /// 1-based.
    pub line: usize,
    pub reason: String,
}

/// Counts over a run's events, for `vibe runs show`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct RunSummary {
    pub events: usize,
    /// Event counts by `type`.
    pub by_type: BTreeMap<String, usize>,
    /// Model rounds started.
    pub rounds: u32,
    pub tool_calls: usize,
    /// From `run_finished`; `None` when the log has no end (the run is going on or was killed).
    pub stop_reason: Option<StopReason>,
}

/// A file in a run's folder.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct RunFile {
    pub name: String,
    pub bytes: u64,
}

impl RunLog {
    /// Whether the log ends with `run_finished`.
    pub fn is_finished(&self) -> bool {
        matches!(self.events.last(), Some(e) if matches!(e.event, Event::RunFinished { .. }))
    }

    /// Whether every line was read (no cut last line, nothing skipped, no damage).
    pub fn is_intact(&self) -> bool {
        self.truncated_line.is_none()
            && self.skipped.is_empty()
            && !matches!(self.integrity, Integrity::Damaged { .. })
    }

    /// The line about the log's damage, or its end without a closing record (`None`: whole,
    /// or of a form that proves nothing: see [`RunLog::notices`]).
    pub fn problem(&self) -> Option<String> {
        self.integrity
            .is_problem()
            .then(|| self.integrity.notice(&self.run_id, &self.path, self.events.len()))
            .flatten()
    }

    /// What a person should know about how the log was read, one line each: first what its
    /// form proves (damage, no closing record, written before chaining), then lines skipped.
    pub fn notices(&self) -> Vec<String> {
        let path = self.path.display();
        let mut out: Vec<String> = self
            .integrity
            .notice(&self.run_id, &self.path, self.events.len())
            .into_iter()
            .collect();
        out.extend(self.skipped.iter().map(|s| {
            format!("{path}:{}: skipped a line that is not a readable event: {}", s.line, s.reason)
        }));
        let said_cut = matches!(self.integrity, Integrity::Unclosed { cut_line: Some(_), .. });
        if let Some(line) = self.truncated_line.filter(|_| !said_cut) {
            out.push(format!(
                "{path}:{line}: the last line is cut short (the run was stopped while writing it); the {} events before it are intact",
                self.events.len()
            ));
        }
        out
    }

    pub fn summary(&self) -> RunSummary {
        let mut by_type = BTreeMap::new();
        let (mut rounds, mut tool_calls, mut stop_reason) = (0, 0, None);
        for env in &self.events {
            let kind = serde_json::to_value(&env.event)
                .ok()
                .and_then(|v| v.get("type").and_then(|t| t.as_str()).map(str::to_string))
                .unwrap_or_else(|| "unknown".to_string());
            *by_type.entry(kind).or_insert(0) += 1;
            match &env.event {
                Event::RoundStarted { round } => rounds = rounds.max(*round),
                Event::ToolCall { .. } => tool_calls += 1,
                Event::RunFinished { stop_reason: reason, .. } => stop_reason = Some(*reason),
                _ => {}
            }
        }
        RunSummary { events: self.events.len(), by_type, rounds, tool_calls, stop_reason }
    }
}

/// Read `<data_dir>/runs/<run_id>/events.jsonl`. A missing file is [`RunLogError::RunNotFound`];
/// a sealed one without the data folder's key (or sealed with another) is
/// [`RunLogError::RunSealed`].
/// This reads without the folder's key (clear logs only); [`RunFolders::read_events`] reads
/// sealed ones too.
pub fn read_events(data_dir: &Path, run_id: &str) -> Result<RunLog, RunLogError> {
    read_events_in(data_dir, None, run_id)
}

/// [`read_events`] with the folders' key.
pub(super) fn read_events_keyed(folders: &RunFolders, run_id: &str) -> Result<RunLog, RunLogError> {
    read_events_in(folders.data_dir(), folders.key(), run_id)
}

fn read_events_in(
    data_dir: &Path,
    key: Option<&Arc<RunKey>>,
    run_id: &str,
) -> Result<RunLog, RunLogError> {
    let dir = run_dir(data_dir, run_id)?;
    let path = dir.join(EVENTS_FILE);
    let bytes = read_log_bytes(&path, run_id)?;
    let key = match seal::form(&bytes) {
        seal::Form::Sealed { .. } => Some(key_or_refuse(data_dir, key)?),
        _ => None,
    };
    let live = || !super::liveness::is_dead(&dir);
    parse_log(run_id, path, &bytes, key.map(|k| &**k), live)
}

/// The key for a sealed file of `data_dir`'s run folders, or the error saying it is not loaded.
fn key_or_refuse<'k>(
    data_dir: &Path,
    key: Option<&'k Arc<RunKey>>,
) -> Result<&'k Arc<RunKey>, RunLogError> {
    key.ok_or_else(|| RunLogError::RunSealed {
        path: data_dir.join(RUNS_DIR),
        reason: "the run folders there are encrypted and the key is not loaded; open the \
                 data folder with VibeLife (the app or `vibe --data-dir`) to read or write them"
            .into(),
    })
}

/// Read the event log at `path` of run `run_id` with `key` (a backup's run folder, checked
/// with its database's key); the run is taken as not going on.
pub fn read_events_at(
    path: &Path,
    run_id: &str,
    key: Option<&RunKey>,
) -> Result<RunLog, RunLogError> {
    let bytes = read_log_bytes(path, run_id)?;
    parse_log(run_id, path.to_path_buf(), &bytes, key, || false)
}

fn read_log_bytes(path: &Path, run_id: &str) -> Result<Vec<u8>, RunLogError> {
    match std::fs::read(path) {
        Ok(bytes) => Ok(bytes),
        Err(e) if e.kind() == ErrorKind::NotFound => {
            Err(RunLogError::RunNotFound { run_id: run_id.to_string(), path: path.to_path_buf() })
        }
        Err(e) => Err(io_error("read", path, e)),
    }
}

/// The log in `bytes`, opened with `key` when sealed; `live` tells whether a process still
/// writes it (asked only of a chained log without its closing record).
fn parse_log(
    run_id: &str,
    path: PathBuf,
    bytes: &[u8],
    key: Option<&RunKey>,
    live: impl FnOnce() -> bool,
) -> Result<RunLog, RunLogError> {
    let sealed = matches!(seal::form(bytes), seal::Form::Sealed { .. });
    let opened = if sealed {
        match seal::open(bytes, key, run_id, EVENTS_FILE) {
            Ok(opened) => Some(opened),
            Err(refused) => {
                return Err(RunLogError::RunSealed { path, reason: refused.to_string() });
            }
        }
    } else {
        None
    };
    let mut log = RunLog {
        run_id: run_id.to_string(),
        path,
        events: Vec::new(),
        lines: Vec::new(),
        truncated_line: None,
        skipped: Vec::new(),
        sealed,
        integrity: Integrity::Clear,
    };
    let text = match opened {
        None => bytes.to_vec(),
        Some(opened) => {
            log.integrity = match opened.chain {
                Some(end) => {
                    let unclosed = matches!(end, super::chain::End::Open { .. });
                    Integrity::from_chain(end, unclosed && live())
                }
                None => Integrity::Unchained,
            };
            for line in opened.damaged {
                log.skipped.push(SkippedLine {
                    line,
                    reason: format!(
                        "line {line} of the encrypted file cannot be decrypted (damaged)"
                    ),
                });
            }
            if opened.cut_last {
                log.truncated_line = Some(bytes.split(|b| *b == b'\n').count());
            }
            opened.text
        }
    };
    let ends_with_newline = text.last() == Some(&b'\n');
    let segments: Vec<&[u8]> = text.split(|b| *b == b'\n').collect();
    let count = if ends_with_newline { segments.len() - 1 } else { segments.len() };
    for (i, raw) in segments.into_iter().take(count).enumerate() {
        let last_unfinished = !ends_with_newline && i + 1 == count;
        let text = String::from_utf8_lossy(raw);
        if text.trim().is_empty() {
            continue;
        }
        match serde_json::from_str::<Envelope>(&text) {
            Ok(env) => {
                log.events.push(env);
                log.lines.push(text.into_owned());
            }
            Err(_) if last_unfinished => log.truncated_line = Some(i + 1),
            Err(e) => log.skipped.push(SkippedLine { line: i + 1, reason: e.to_string() }),
        }
    }
    Ok(log)
}

/// Ids of the runs with an `events.jsonl` under `<data_dir>/runs/`, sorted. No folder: empty.
pub fn list_runs_on_disk(data_dir: &Path) -> Result<Vec<String>, RunLogError> {
    let root = data_dir.join(RUNS_DIR);
    let entries = match std::fs::read_dir(&root) {
        Ok(entries) => entries,
        Err(e) if e.kind() == ErrorKind::NotFound => return Ok(Vec::new()),
        Err(e) => return Err(io_error("list", &root, e)),
    };
    let mut ids = Vec::new();
    for entry in entries {
        let entry = entry.map_err(|e| io_error("list", &root, e))?;
        let Ok(id) = entry.file_name().into_string() else { continue };
        if entry.path().join(EVENTS_FILE).is_file() {
            ids.push(id);
        }
    }
    ids.sort();
    Ok(ids)
}

/// The files in a run's folder (events.jsonl and large outputs, not dot files), sorted by name.
pub fn run_files(data_dir: &Path, run_id: &str) -> Result<Vec<RunFile>, RunLogError> {
    let dir = run_dir(data_dir, run_id)?;
    let entries = match std::fs::read_dir(&dir) {
        Ok(entries) => entries,
        Err(e) if e.kind() == ErrorKind::NotFound => {
            return Err(RunLogError::RunNotFound { run_id: run_id.to_string(), path: dir });
        }
        Err(e) => return Err(io_error("list", &dir, e)),
    };
    let mut files = Vec::new();
    for entry in entries {
        let entry = entry.map_err(|e| io_error("list", &dir, e))?;
        let meta = entry.metadata().map_err(|e| io_error("read", &entry.path(), e))?;
        let name = entry.file_name().to_string_lossy().into_owned();
        // Dot files (the run's `.lock`) are bookkeeping, not output.
        if meta.is_file() && !name.starts_with('.') {
            files.push(RunFile {
                name: entry.file_name().to_string_lossy().into_owned(),
                bytes: meta.len(),
            });
        }
    }
    files.sort_by(|a, b| a.name.cmp(&b.name));
    Ok(files)
}

/// The clear bytes of the file `name` in a run's folder (a large tool output; the event log is
/// [`read_events`]'s), opened with the data folder's key when it is sealed. Any part that
/// cannot be decrypted is an error naming the file.
/// This reads without the folder's key (clear files only); [`RunFolders::read_run_file`]
/// opens sealed ones too.
pub fn read_run_file(data_dir: &Path, run_id: &str, name: &str) -> Result<Vec<u8>, RunLogError> {
    read_run_file_in(data_dir, None, run_id, name)
}

/// [`read_run_file`] with the folders' key.
pub(super) fn read_run_file_keyed(
    folders: &RunFolders,
    run_id: &str,
    name: &str,
) -> Result<Vec<u8>, RunLogError> {
    read_run_file_in(folders.data_dir(), folders.key(), run_id, name)
}

fn read_run_file_in(
    data_dir: &Path,
    key: Option<&Arc<RunKey>>,
    run_id: &str,
    name: &str,
) -> Result<Vec<u8>, RunLogError> {
    let dir = run_dir(data_dir, run_id)?;
    if name.is_empty() || name.starts_with('.') || name.contains(['/', '\\']) {
        return Err(RunLogError::InvalidRequest(format!(
            "\"{name}\" is not a file of run {run_id}'s folder (a plain file name, as the run lists its files)"
        )));
    }
    let path = dir.join(name);
    let bytes = match std::fs::read(&path) {
        Ok(bytes) => bytes,
        Err(e) if e.kind() == ErrorKind::NotFound => {
            return Err(RunLogError::RunNotFound { run_id: run_id.to_string(), path });
        }
        Err(e) => return Err(io_error("read", &path, e)),
    };
    if !matches!(seal::form(&bytes), seal::Form::Sealed { .. }) {
        return Ok(bytes);
    }
    let key = key_or_refuse(data_dir, key)?;
    let opened = seal::open(&bytes, Some(&**key), run_id, name).map_err(|refused| {
        RunLogError::RunSealed { path: path.clone(), reason: refused.to_string() }
    })?;
    let whole =
        opened.chain.as_ref().is_none_or(|end| matches!(end, super::chain::End::Closed { .. }));
    if !opened.damaged.is_empty() || opened.cut_last || !whole {
        return Err(RunLogError::RunSealed {
            path,
            reason: "part of it cannot be decrypted (the file is damaged)".into(),
        });
    }
    Ok(opened.text)
}
