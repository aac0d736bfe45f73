//! Writing one run's audit folder while the run happens. Each event becomes one line of
//! `events.jsonl`, written with a single `write_all` on a file opened for appending (no
//! user-space buffer for anything but streamed text), so a process killed at any moment leaves
//! every earlier line whole. Streamed text deltas that follow each other within
//! [`DELTA_FLUSH`] are written together with the next line (one write instead of one per
//! delta); a kill loses at most that much of the streamed text in the log (the database keeps
//! the draft). Failures after creation never stop the run: they are logged and the first one
//! is kept.

use std::fs::{File, OpenOptions};
use std::io::{Read, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::sync::atomic::AtomicU32;
use std::time::{Duration, Instant};

use serde_json::Value;
use vibe_wire::{Envelope, Event};

use super::{EVENTS_FILE, blob, io_error, run_dir};
use crate::CoreError;
use crate::emit::EventSink;

/// The audit folder of one run, open for writing. Plug it into an
/// [`Emitter`](crate::emit::Emitter) as a sink.
pub struct RunAudit {
    run_id: String,
    dir: PathBuf,
    events_path: PathBuf,
    log: Mutex<LogFile>,
    first_error: Mutex<Option<String>>,
    next_blob: AtomicU32,
}

/// How long streamed text deltas may wait to be written with the next line.
pub const DELTA_FLUSH: Duration = Duration::from_millis(50);

struct LogFile {
    file: File,
    /// The last write may have stopped mid-line: start the next one on a fresh line.
    broken_line: bool,
    /// Whole lines not written yet (deltas within [`DELTA_FLUSH`]).
    pending: Vec<u8>,
    last_write: Instant,
}

impl LogFile {
    fn new(file: File, broken_line: bool) -> Self {
        Self { file, broken_line, pending: Vec::new(), last_write: Instant::now() }
    }

    /// Write what is pending in one call.
    fn flush(&mut self) -> std::io::Result<()> {
        if self.pending.is_empty() {
            return Ok(());
        }
        if self.broken_line {
            self.pending.insert(0, b'\n');
        }
        let result = self.file.write_all(&self.pending);
        self.pending.clear();
        self.last_write = Instant::now();
        self.broken_line = result.is_err();
        result
    }
}

impl RunAudit {
    /// Create (or reopen) `<data_dir>/runs/<run_id>/` and its `events.jsonl`. Reopening appends;
    /// a last line cut short by a crash is closed first so later events stay readable.
    ///
    /// The open log holds an exclusive OS lock on `events.jsonl` for as long as it lives: it
    /// is how other processes tell a live run from one a killed process left behind
    /// ([`crate::chat::liveness`]). A log another process holds open is refused.
    pub fn create(data_dir: &Path, run_id: &str) -> Result<RunAudit, CoreError> {
        Self::open_in(run_dir(data_dir, run_id)?, run_id)
    }

    /// [`RunAudit::create`] in the folder `dir` (a spare run folder, see `spare`).
    pub(super) fn open_in(dir: PathBuf, run_id: &str) -> Result<RunAudit, CoreError> {
        super::private_dir(&dir).map_err(|e| io_error("create", &dir, e))?;
        let events_path = dir.join(EVENTS_FILE);
        let mut file = super::private_file(OpenOptions::new())
            .create(true)
            .append(true)
            .read(true)
            .open(&events_path)
            .map_err(|e| io_error("open", &events_path, e))?;
        file.try_lock().map_err(|e| match e {
            std::fs::TryLockError::WouldBlock => CoreError::InvalidRequest(format!(
                "run {run_id} is still running in another process ({} is locked)",
                events_path.display()
            )),
            std::fs::TryLockError::Error(e) => io_error("lock", &events_path, e),
        })?;
        let broken_line =
            ends_mid_line(&mut file).map_err(|e| io_error("read", &events_path, e))?;
        Ok(Self::from_parts(run_id, dir, events_path, LogFile::new(file, broken_line)))
    }

    /// The same open log after its folder was renamed to `dir`.
    pub(super) fn moved_to(mut self, dir: PathBuf) -> Self {
        self.events_path = dir.join(EVENTS_FILE);
        self.dir = dir;
        self
    }

    fn from_parts(run_id: &str, dir: PathBuf, events_path: PathBuf, log: LogFile) -> Self {
        Self {
            run_id: run_id.to_string(),
            dir,
            events_path,
            log: Mutex::new(log),
            first_error: Mutex::new(None),
            next_blob: AtomicU32::new(1),
        }
    }

    pub fn run_id(&self) -> &str {
        &self.run_id
    }

    /// The run's folder.
    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// The run's `events.jsonl`.
    pub fn events_path(&self) -> &Path {
        &self.events_path
    }

    /// The first failure since creation (events or large outputs that could not be written),
    /// as one line naming the file; `None` while everything was written.
    pub fn error(&self) -> Option<String> {
        self.first_error.lock().unwrap_or_else(|p| p.into_inner()).clone()
    }

    /// Append one event as one JSON line.
    pub fn write(&self, envelope: &Envelope) {
        let mut line = match serde_json::to_vec(envelope) {
            Ok(line) => line,
            Err(e) => {
                return self.fail(format!(
                    "cannot serialise event {} of run {}: {e}",
                    envelope.seq, self.run_id
                ));
            }
        };
        line.push(b'\n');
        let streamed =
            matches!(envelope.event, Event::AssistantDelta { .. } | Event::ReasoningDelta { .. });
        let mut log = self.log.lock().unwrap_or_else(|p| p.into_inner());
        log.pending.extend_from_slice(&line);
        if streamed && log.last_write.elapsed() < DELTA_FLUSH {
            return;
        }
        if let Err(e) = log.flush() {
            drop(log);
            self.fail(io_error("write", &self.events_path, e).to_string());
        }
    }

    /// Write any buffered deltas now.
    pub fn flush(&self) {
        let mut log = self.log.lock().unwrap_or_else(|p| p.into_inner());
        if let Err(e) = log.flush() {
            drop(log);
            self.fail(io_error("write", &self.events_path, e).to_string());
        }
    }

    /// Keep a large tool output out of the event log: when `value` serialises to more than
    /// [`EXTERNALIZE_THRESHOLD`](super::EXTERNALIZE_THRESHOLD) bytes it is written whole to a
    /// file beside `events.jsonl` and a short preview object is returned with the file's name
    /// (relative to the run folder, for `tool_result.file`). Otherwise, or when the file cannot
    /// be written, `value` comes back unchanged with `None`.
    pub fn externalize(&self, name_hint: &str, value: &Value) -> (Value, Option<String>) {
        let Some(text) = blob::oversized(value) else {
            return (value.clone(), None);
        };
        match blob::write_new(&self.dir, name_hint, &self.next_blob, &text) {
            Ok(name) => (blob::preview(&text, &name), Some(name)),
            Err(e) => {
                self.fail(e.to_string());
                (value.clone(), None)
            }
        }
    }

    fn fail(&self, message: String) {
        let mut first = self.first_error.lock().unwrap_or_else(|p| p.into_inner());
        if first.is_none() {
            tracing::warn!(run_id = %self.run_id, "audit: {message}");
            *first = Some(message);
        } else {
            tracing::debug!(run_id = %self.run_id, "audit: {message}");
        }
    }

    #[cfg(test)]
    pub(super) fn blob_counter(&self) -> u32 {
        self.next_blob.load(std::sync::atomic::Ordering::Relaxed)
    }
}

impl Drop for RunAudit {
    fn drop(&mut self) {
        self.flush();
    }
}

impl EventSink for RunAudit {
    fn send(&self, envelope: &Envelope) {
        self.write(envelope);
    }
}

/// Whether a non-empty file's last byte is not a newline (a line left unfinished).
fn ends_mid_line(file: &mut File) -> std::io::Result<bool> {
    if file.metadata()?.len() == 0 {
        return Ok(false);
    }
    file.seek(SeekFrom::End(-1))?;
    let mut last = [0u8; 1];
    file.read_exact(&mut last)?;
    Ok(last[0] != b'\n')
}

#[cfg(test)]
mod tests {
    use super::*;
    use vibe_wire::Event;

    fn envelope(seq: u64) -> Envelope {
        Envelope {
            run_id: "r".into(),
            seq,
            ts: "2026-01-01T00:00:00Z".into(),
            event: Event::RoundStarted { round: 1 },
        }
    }

    #[cfg(target_os = "linux")]
    #[test]
    fn a_full_disk_is_remembered_not_panicked_and_the_first_error_is_kept() {
        let dir = tempfile::tempdir().unwrap();
        let file = OpenOptions::new().write(true).open("/dev/full").unwrap();
        let audit = RunAudit::from_parts(
            "r",
            dir.path().to_path_buf(),
            PathBuf::from("/dev/full"),
            LogFile::new(file, false),
        );
        audit.write(&envelope(0));
        let first = audit.error().unwrap();
        assert!(first.starts_with("cannot write /dev/full: "), "{first}");
        audit.write(&envelope(1));
        assert_eq!(audit.error().unwrap(), first);
        assert!(audit.log.lock().unwrap().broken_line);
    }

    fn delta(seq: u64) -> Envelope {
        Envelope { event: Event::AssistantDelta { text: format!("片段{seq}") }, ..envelope(seq) }
    }

    fn lines_on_disk(audit: &RunAudit) -> usize {
        std::fs::read_to_string(audit.events_path()).unwrap().lines().count()
    }

    #[test]
    fn quick_deltas_go_out_with_the_next_line_and_slow_ones_at_once() {
        let dir = tempfile::tempdir().unwrap();
        let audit = RunAudit::create(dir.path(), "r").unwrap();
        audit.write(&envelope(0));
        assert_eq!(lines_on_disk(&audit), 1);
        audit.write(&delta(1));
        audit.write(&delta(2));
        assert_eq!(lines_on_disk(&audit), 1, "deltas wait for the next line");
        audit.write(&envelope(3));
        assert_eq!(lines_on_disk(&audit), 4);
        std::thread::sleep(DELTA_FLUSH + Duration::from_millis(10));
        audit.write(&delta(4));
        assert_eq!(lines_on_disk(&audit), 5, "a delta after a pause is written at once");
        audit.write(&delta(5));
        let path = audit.events_path().to_path_buf();
        drop(audit);
        let text = std::fs::read_to_string(&path).unwrap();
        let seqs: Vec<u64> =
            text.lines().map(|l| serde_json::from_str::<Envelope>(l).unwrap().seq).collect();
        assert_eq!(seqs, [0, 1, 2, 3, 4, 5], "closing the log writes what waited, in order");
    }

    #[test]
    fn reopening_after_a_cut_line_starts_the_next_event_on_a_fresh_line() {
        let dir = tempfile::tempdir().unwrap();
        let audit = RunAudit::create(dir.path(), "r").unwrap();
        audit.write(&envelope(0));
        let path = audit.events_path().to_path_buf();
        drop(audit);
        let mut f = OpenOptions::new().append(true).open(&path).unwrap();
        f.write_all(br#"{"run_id":"r","seq":1,"ts":"#).unwrap();
        let audit = RunAudit::create(dir.path(), "r").unwrap();
        audit.write(&envelope(2));
        let text = std::fs::read_to_string(&path).unwrap();
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines.len(), 3);
        assert!(lines[2].contains(r#""seq":2"#), "{text}");
        assert!(audit.error().is_none());
        assert_eq!(audit.blob_counter(), 1);
    }
}
