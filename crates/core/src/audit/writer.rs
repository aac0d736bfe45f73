//! Writing one run's audit folder while the run happens. Each event becomes one line of
//! `events.jsonl`, written with a single `write_all` on a file opened for appending (no
//! user-space buffer but for events that wait for the next line), so a process killed at any
//! moment leaves every earlier line whole. Streamed text deltas, and the events that the run's
//! own next step follows at once (`may_wait`), are written with the next line when they follow
//! the last write within [`DELTA_FLUSH`] (one write and one sealed record instead of one per
//! event); a kill loses at most that much of the log (the database keeps the draft and the
//! results). Failures after creation never stop the run: they are logged and the first one
//! is kept. In a data folder that seals its run files (`keys`), each write is one sealed
//! record (`seal`) holding the lines written together, and the header goes out with the first.

use std::fs::{File, OpenOptions};
use std::io::{Read, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::AtomicU32;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use serde_json::Value;
use vibe_wire::{Envelope, Event};

use super::seal::{self, Form, RunKey, Sealer};
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
    /// The key sealing this run's files; `None` in a clear data folder.
    key: Option<Arc<RunKey>>,
}

/// How long after the last write an event that may wait ([`may_wait`]) is kept for the next
/// line.
pub const DELTA_FLUSH: Duration = Duration::from_millis(50);

/// Whether `event` may wait for the next line: streamed text, or an event the run's own next
/// step follows at once (the prompt after `round_started`, the tool result after the changes
/// it reports, the calls or the end after `usage`). An event after which the run may wait (for
/// the model, a tool, the person, its end) is written at once, with what waited for it.
fn may_wait(event: &Event) -> bool {
    matches!(
        event,
        Event::AssistantDelta { .. }
            | Event::ReasoningDelta { .. }
            | Event::RoundStarted { .. }
            | Event::StateChanged { .. }
            | Event::SkillActivated { .. }
            | Event::PlanUpdated { .. }
            | Event::Usage { .. }
    )
}

struct LogFile {
    file: File,
    /// The last write may have stopped mid-line: start the next one on a fresh line.
    broken_line: bool,
    /// Whole lines not written yet (deltas within [`DELTA_FLUSH`]).
    pending: Vec<u8>,
    last_write: Instant,
    /// Seals each write as one record (a data folder with encryption on).
    sealer: Option<Sealer>,
    /// The file is empty: the sealed header goes out with the first write.
    needs_header: bool,
}

impl LogFile {
    fn new(file: File, broken_line: bool) -> Self {
        Self {
            file,
            broken_line,
            pending: Vec::new(),
            last_write: Instant::now(),
            sealer: None,
            needs_header: false,
        }
    }

    /// Write what is pending in one call.
    fn flush(&mut self) -> std::io::Result<()> {
        if self.pending.is_empty() {
            return Ok(());
        }
        if let Some(sealer) = &mut self.sealer {
            let record = sealer.seal(&self.pending);
            self.pending.clear();
            if std::mem::take(&mut self.needs_header) {
                self.pending.extend_from_slice(sealer.key().header().as_bytes());
            }
            self.pending.extend_from_slice(&record);
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
    ///
    /// In a data folder that seals its run files the log is sealed with its key
    /// ([`super::keys::key_for`]); a folder marked sealed whose key is not loaded is refused.
    pub fn create(data_dir: &Path, run_id: &str) -> Result<RunAudit, CoreError> {
        let key = super::keys::key_for(data_dir)?;
        Self::open_in(run_dir(data_dir, run_id)?, run_id, key)
    }

    /// [`RunAudit::create`] in the folder `dir` (a spare run folder, see `spare`), sealed with
    /// `key` when there is one.
    pub(super) fn open_in(
        dir: PathBuf,
        run_id: &str,
        key: Option<Arc<RunKey>>,
    ) -> Result<RunAudit, CoreError> {
        super::private_dir(&dir).map_err(|e| io_error("create", &dir, e))?;
        let events_path = dir.join(EVENTS_FILE);
        let file = super::private_file(OpenOptions::new())
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
        let mut log = match check_form(file, key.as_deref())
            .map_err(|e| io_error("read", &events_path, e))?
        {
            Ok(log) => log,
            Err(reason) => return Err(CoreError::RunSealed { path: events_path, reason }),
        };
        if let Some(key) = &key {
            log.sealer = Some(
                Sealer::new(key.clone(), run_id, EVENTS_FILE)
                    .map_err(|e| io_error("seal", &events_path, e))?,
            );
        }
        let mut audit = Self::from_parts(run_id, dir, events_path, log);
        audit.key = key;
        Ok(audit)
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
            key: None,
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
        let mut log = self.log.lock().unwrap_or_else(|p| p.into_inner());
        log.pending.extend_from_slice(&line);
        if may_wait(&envelope.event) && log.last_write.elapsed() < DELTA_FLUSH {
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
        let sealing = self.key.as_ref().map(|key| (key.clone(), self.run_id.as_str()));
        match blob::write_new(&self.dir, name_hint, &self.next_blob, &text, sealing) {
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

/// The log `file` (just opened and locked) made ready for appending with `key`: a header cut
/// short by a kill is dropped (the file is empty again), a sealed file must be sealed with
/// `key`, and a clear one stays clear only without a key. `Err(reason)` refuses the file.
fn check_form(mut file: File, key: Option<&RunKey>) -> std::io::Result<Result<LogFile, String>> {
    let mut head = Vec::with_capacity(seal::HEADER_LEN);
    file.seek(SeekFrom::Start(0))?;
    (&mut file).take(seal::HEADER_LEN as u64).read_to_end(&mut head)?;
    let reason = match (seal::form(&head), key) {
        (Form::Empty, _) => {
            if !head.is_empty() {
                file.set_len(0)?;
            }
            let mut log = LogFile::new(file, false);
            log.needs_header = key.is_some();
            return Ok(Ok(log));
        }
        (Form::Clear, None) => None,
        (Form::Sealed { key_id }, Some(key)) if key_id == key.id() => None,
        (Form::Clear, Some(_)) => Some(
            "it is a clear-text log in a data folder that encrypts its run folders; reopen              the data folder so that VibeLife encrypts it first"
                .to_string(),
        ),
        (Form::Sealed { key_id }, None) => {
            Some(seal::Refused::NoKey { key_id: key_id.to_string() }.to_string())
        }
        (Form::Sealed { key_id }, Some(key)) => Some(
            seal::Refused::OtherKey { key_id: key_id.to_string(), ours: key.id().to_string() }
                .to_string(),
        ),
    };
    if let Some(reason) = reason {
        return Ok(Err(reason));
    }
    let broken_line = ends_mid_line(&mut file)?;
    Ok(Ok(LogFile::new(file, broken_line)))
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
            event: Event::ToolCall {
                id: format!("call_{seq}"),
                name: "read_state".into(),
                arguments: serde_json::json!({}),
            },
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

    /// The events between two waits of a run go out as one write: `round_started` with the
    /// prompt after it, the changes a call made with its result.
    #[test]
    fn events_the_run_follows_at_once_go_out_with_the_next_line() {
        let dir = tempfile::tempdir().unwrap();
        let audit = RunAudit::create(dir.path(), "r").unwrap();
        audit.write(&envelope(0));
        let event = |seq, event| Envelope { event, ..envelope(seq) };
        audit.write(&event(1, Event::RoundStarted { round: 1 }));
        let changed = Event::StateChanged { skill: Some("lifecoach".into()), paths: vec![] };
        audit.write(&event(2, changed));
        assert_eq!(lines_on_disk(&audit), 1, "they wait for the next line");
        audit.write(&envelope(3));
        assert_eq!(lines_on_disk(&audit), 4);
        std::thread::sleep(DELTA_FLUSH + Duration::from_millis(10));
        audit.write(&event(4, Event::RoundStarted { round: 2 }));
        assert_eq!(lines_on_disk(&audit), 5, "after a pause (a long tool, the model) at once");
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

#[cfg(test)]
mod sealed_tests {
    use super::*;
    use crate::audit::{read_events, read_run_file, register};
    use vibe_wire::Event;

    fn said(seq: u64, text: &str) -> Envelope {
        Envelope {
            run_id: "r".into(),
            seq,
            ts: "2026-01-01T00:00:00Z".into(),
            event: Event::AssistantDelta { text: text.into() },
        }
    }

    fn holds(path: &Path, text: &str) -> bool {
        let bytes = std::fs::read(path).unwrap();
        bytes.windows(text.len()).any(|w| w == text.as_bytes())
    }

    #[test]
    fn a_sealed_log_and_its_large_outputs_hold_no_clear_text_and_reopen_for_appending() {
        let dir = tempfile::tempdir().unwrap();
        register(dir.path(), Some(RunKey::new(&[4; 32])));
        let audit = RunAudit::create(dir.path(), "r").unwrap();
        audit.write(&said(0, "我不想再加班了"));
        let big =
            serde_json::json!({"journal": "失眠".repeat(super::super::EXTERNALIZE_THRESHOLD)});
        let (_, file) = audit.externalize("read_state", &big);
        let file = file.unwrap();
        let path = audit.events_path().to_path_buf();
        drop(audit);
        assert!(!holds(&path, "我不想再加班了"));
        assert!(!holds(&dir.path().join("runs/r").join(&file), "失眠"));
        let whole: serde_json::Value =
            serde_json::from_slice(&read_run_file(dir.path(), "r", &file).unwrap()).unwrap();
        assert_eq!(whole, big);

        // Reopened after a kill cut its last record: the next event still reads.
        let mut f = OpenOptions::new().append(true).open(&path).unwrap();
        f.write_all(b"AAAAbbbbCCCC").unwrap();
        let audit = RunAudit::create(dir.path(), "r").unwrap();
        audit.write(&said(1, "然后呢"));
        drop(audit);
        let log = read_events(dir.path(), "r").unwrap();
        let seqs: Vec<u64> = log.events.iter().map(|e| e.seq).collect();
        assert_eq!(seqs, [0, 1]);
        assert_eq!(log.skipped.len(), 1, "the cut record, now inside, is named");
    }

    #[test]
    fn a_header_cut_by_a_kill_is_started_again_and_a_clear_log_is_not_appended_sealed() {
        let dir = tempfile::tempdir().unwrap();
        let run = dir.path().join("runs/r");
        std::fs::create_dir_all(&run).unwrap();
        std::fs::write(run.join(EVENTS_FILE), "#vibelife-sea").unwrap();
        register(dir.path(), Some(RunKey::new(&[4; 32])));
        let audit = RunAudit::create(dir.path(), "r").unwrap();
        audit.write(&said(0, "hi"));
        drop(audit);
        assert_eq!(read_events(dir.path(), "r").unwrap().events.len(), 1);

        std::fs::create_dir_all(dir.path().join("runs/old")).unwrap();
        std::fs::write(dir.path().join("runs/old").join(EVENTS_FILE), "{\"seq\":0}\n").unwrap();
        let err = RunAudit::create(dir.path(), "old").err().unwrap();
        assert!(matches!(err, CoreError::RunSealed { .. }), "{err}");
        assert!(err.to_string().contains("clear-text log"), "{err}");
    }
}
