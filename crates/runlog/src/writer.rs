//! Writing one run's audit folder while the run happens. Each event becomes one line of
//! `events.jsonl`, on a file opened for appending. Lines wait in memory for at most
//! [`DELTA_FLUSH`] and go out together in one `write_all` (one sealed record in a sealed log):
//! with the line that finds the oldest waiting for that long, else from the late writer's
//! thread (`late`), else when the log is closed. A fast turn is one write instead of one per
//! event; a process killed at any moment leaves every earlier line whole and loses at most
//! the last [`DELTA_FLUSH`] of events (the database keeps the draft and the results).
//! Failures after creation never stop the run: they are logged and the first one is kept. In a
//! data folder that seals its run files ([`RunFolders`]), each write is one sealed record (`seal`)
//! holding the lines written together, and the header goes out with the first. The records
//! are chained (`chain`) in the order they are written, whichever thread writes them (the
//! log's lock orders them), and closing the log writes the closing record.

use std::fs::{File, OpenOptions};
use std::io::{Read, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::AtomicU32;
use std::sync::{Arc, Mutex, Weak};
use std::time::{Duration, Instant};

use serde_json::Value;
use vibe_wire::Envelope;

use super::chain::{self, Link};
use super::late::{self, Waiting};
use super::run_key::RunKey;
use super::seal::{self, Form, Sealer};
use super::{EVENTS_FILE, RunFolders, blob, io_error};
use crate::RunLogError;
use crate::emit::EventSink;

/// The audit folder of one run, open for writing. Plug it into an
/// [`Emitter`](crate::emit::Emitter) as a sink.
pub struct RunAudit {
    run_id: String,
    dir: PathBuf,
    events_path: PathBuf,
    /// Shared with the late writer (weakly), which writes lines nothing followed.
    log: Arc<Mutex<LogFile>>,
    first_error: Mutex<Option<String>>,
    next_blob: AtomicU32,
    /// The key sealing this run's files; `None` in a clear data folder.
    key: Option<Arc<RunKey>>,
}

/// The longest a line waits in memory before it is written.
pub const DELTA_FLUSH: Duration = Duration::from_millis(50);

struct LogFile {
    file: File,
    /// The last write may have stopped mid-line: start the next one on a fresh line.
    broken_line: bool,
    /// Whole lines not written yet.
    pending: Vec<u8>,
    /// When the oldest line in `pending` was added (`None`: nothing waits).
    waiting_since: Option<Instant>,
    /// The late writer will look at this log (at most one visit is booked at a time).
    booked: bool,
    /// A write that failed, for the run to report (the late writer cannot: the run's error
    /// belongs to the run).
    unwritten: Option<std::io::Error>,
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
            waiting_since: None,
            booked: false,
            unwritten: None,
            sealer: None,
            needs_header: false,
        }
    }

    /// Write what is pending in one call; with `close`, a sealed log's closing record too
    /// (not in a file nothing was written to, which stays empty).
    fn flush(&mut self, close: bool) -> std::io::Result<()> {
        self.waiting_since = None;
        let closing = close && !(self.needs_header && self.pending.is_empty());
        if self.pending.is_empty() && !(closing && self.sealer.is_some()) {
            return Ok(());
        }
        if let Some(sealer) = &mut self.sealer {
            let mut out = Vec::with_capacity(self.pending.len() * 2);
            if std::mem::take(&mut self.needs_header) {
                out.extend_from_slice(sealer.header().as_bytes());
            }
            if !self.pending.is_empty() {
                out.extend_from_slice(&sealer.seal(&self.pending));
            }
            if closing && let Some(end) = sealer.close() {
                out.extend_from_slice(&end);
            }
            self.pending = out;
        }
        if self.broken_line {
            self.pending.insert(0, b'\n');
        }
        let result = self.file.write_all(&self.pending);
        self.pending.clear();
        self.broken_line = result.is_err();
        result
    }

    /// [`LogFile::flush`], keeping a failure for the run to report.
    fn write_out(&mut self) {
        if let Err(e) = self.flush(false) {
            self.unwritten.get_or_insert(e);
        }
    }
}

impl Waiting for Mutex<LogFile> {
    fn write_due(&self, now: Instant) -> Option<Instant> {
        let mut log = self.lock().unwrap_or_else(|p| p.into_inner());
        let Some(since) = log.waiting_since else {
            log.booked = false;
            return None;
        };
        let due = since + DELTA_FLUSH;
        if now < due {
            return Some(due);
        }
        log.booked = false;
        log.write_out();
        None
    }

    fn write_now(&self) {
        self.lock().unwrap_or_else(|p| p.into_inner()).write_out();
    }
}

impl RunAudit {
    /// Create (or reopen) `<data_dir>/runs/<run_id>/` and its `events.jsonl`. Reopening appends;
    /// a last line cut short by a crash is closed first so later events stay readable.
    ///
    /// The open log holds an exclusive OS lock on `events.jsonl` for as long as it lives: it
    /// is how other processes tell a live run from one a killed process left behind
    /// ([`liveness`](super::liveness)). A log another process holds open is refused.
    ///
    /// This one has no key: the log is clear, and a folder marked sealed is refused (tools and
    /// tests below the app). [`RunFolders::create`] seals it with the folders' key.
    pub fn create(data_dir: &Path, run_id: &str) -> Result<RunAudit, RunLogError> {
        RunFolders::unkeyed(data_dir)?.create(run_id)
    }

    /// [`RunAudit::create`] in the folder `dir` (a spare run folder, see `spare`), sealed with
    /// `key` when there is one.
    pub(super) fn open_in(
        dir: PathBuf,
        run_id: &str,
        key: Option<Arc<RunKey>>,
    ) -> Result<RunAudit, RunLogError> {
        super::private_dir(&dir).map_err(|e| io_error("create", &dir, e))?;
        let events_path = dir.join(EVENTS_FILE);
        let file = super::private_file(OpenOptions::new())
            .create(true)
            .append(true)
            .read(true)
            .open(&events_path)
            .map_err(|e| io_error("open", &events_path, e))?;
        file.try_lock().map_err(|e| match e {
            std::fs::TryLockError::WouldBlock => RunLogError::InvalidRequest(format!(
                "run {run_id} is still running in another process ({} is locked)",
                events_path.display()
            )),
            std::fs::TryLockError::Error(e) => io_error("lock", &events_path, e),
        })?;
        let (mut log, resume) = match check_form(file, key.as_deref(), run_id)
            .map_err(|e| io_error("read", &events_path, e))?
        {
            Ok(found) => found,
            Err(reason) => return Err(RunLogError::RunSealed { path: events_path, reason }),
        };
        if let Some(key) = &key {
            let sealer = match resume {
                Some(link) => Sealer::resume(key.clone(), run_id, EVENTS_FILE, link),
                None => Sealer::unchained(key.clone(), run_id, EVENTS_FILE),
            };
            log.sealer = Some(sealer.map_err(|e| io_error("seal", &events_path, e))?);
        }
        let mut audit = Self::from_parts(run_id, dir, events_path, log);
        audit.key = key;
        Ok(audit)
    }

    /// The same open log after its folder was renamed to `dir`, now the log of `run_id` (a
    /// spare run folder taken over by a run). Nothing may have been written to it yet: a sealed
    /// log's records are bound to the run id, so its sealer starts again for `run_id`.
    pub(super) fn moved_to(mut self, dir: PathBuf, run_id: &str) -> Result<Self, RunLogError> {
        self.events_path = dir.join(EVENTS_FILE);
        self.dir = dir;
        if self.run_id != run_id {
            let mut log = self.lock_log();
            let untouched = log.pending.is_empty()
                && log.file.metadata().map(|m| m.len() == 0).unwrap_or(false);
            if !untouched {
                return Err(RunLogError::InvalidRequest(format!(
                    "the run folder {} was written to before run {run_id} took it over",
                    self.dir.display()
                )));
            }
            if let Some(key) = &self.key {
                let sealer = Sealer::resume(key.clone(), run_id, EVENTS_FILE, Link::START)
                    .map_err(|e| io_error("seal", &self.events_path, e))?;
                log.sealer = Some(sealer);
            }
            drop(log);
            self.run_id = run_id.to_string();
        }
        Ok(self)
    }

    fn from_parts(run_id: &str, dir: PathBuf, events_path: PathBuf, log: LogFile) -> Self {
        Self {
            run_id: run_id.to_string(),
            dir,
            events_path,
            log: Arc::new(Mutex::new(log)),
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
        self.report_unwritten();
        self.first_error.lock().unwrap_or_else(|p| p.into_inner()).clone()
    }

    /// Append one event as one JSON line (written within [`DELTA_FLUSH`]).
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
        let mut log = self.lock_log();
        log.pending.extend_from_slice(&line);
        let now = Instant::now();
        let since = *log.waiting_since.get_or_insert(now);
        if now.duration_since(since) < DELTA_FLUSH {
            if log.booked {
                return;
            }
            let this: Weak<dyn Waiting> = Arc::downgrade(&self.log) as Weak<dyn Waiting>;
            if late::schedule(this, since + DELTA_FLUSH) {
                log.booked = true;
                return;
            }
        }
        log.write_out();
        drop(log);
        self.report_unwritten();
    }

    /// Write what waits now.
    pub fn flush(&self) {
        self.lock_log().write_out();
        self.report_unwritten();
    }

    fn lock_log(&self) -> std::sync::MutexGuard<'_, LogFile> {
        self.log.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// Report a write that failed (this run's own or the late writer's) as the run's error.
    fn report_unwritten(&self) {
        let unwritten = self.lock_log().unwritten.take();
        if let Some(e) = unwritten {
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
    /// Closing the log: what waits is written, with a sealed log's closing record.
    fn drop(&mut self) {
        let written = self.lock_log().flush(true);
        if let Err(e) = written {
            self.fail(io_error("write", &self.events_path, e).to_string());
        }
        self.report_unwritten();
    }
}

impl EventSink for RunAudit {
    fn send(&self, envelope: &Envelope) {
        self.write(envelope);
    }
}

/// What [`check_form`] found: the log, and where a sealed log's chain continues (`None`: a
/// v1 file written before chaining, appended to unchained).
type Found = (LogFile, Option<Link>);

/// The log `file` of run `run_id` (just opened and locked) made ready for appending with
/// `key`: a header cut short by a kill is dropped (the file is empty again), a sealed file
/// must be sealed with `key` (a chained one continues its chain after its last record that
/// opens), and a clear one stays clear only without a key. `Err(reason)` refuses the file.
fn check_form(
    mut file: File,
    key: Option<&RunKey>,
    run_id: &str,
) -> std::io::Result<Result<Found, String>> {
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
            return Ok(Ok((log, Some(Link::START))));
        }
        (Form::Clear, None) => None,
        (Form::Sealed { key_id, chained }, Some(key)) if key_id == key.id() => {
            let resume = if chained {
                let mut bytes = Vec::new();
                file.seek(SeekFrom::Start(0))?;
                file.read_to_end(&mut bytes)?;
                let context = chain::context(run_id, EVENTS_FILE);
                Some(chain::walk(key, &context, &bytes[seal::HEADER_LEN..]).resume)
            } else {
                None
            };
            let broken_line = ends_mid_line(&mut file)?;
            return Ok(Ok((LogFile::new(file, broken_line), resume)));
        }
        (Form::Clear, Some(_)) => Some(
            "it is a clear-text log in a data folder that encrypts its run folders; reopen \
             the data folder so that VibeLife encrypts it first"
                .to_string(),
        ),
        (Form::Sealed { key_id, .. }, None) => {
            Some(seal::Refused::NoKey { key_id: key_id.to_string() }.to_string())
        }
        (Form::Sealed { key_id, .. }, Some(key)) => Some(
            seal::Refused::OtherKey { key_id: key_id.to_string(), ours: key.id().to_string() }
                .to_string(),
        ),
    };
    if let Some(reason) = reason {
        return Ok(Err(reason));
    }
    let broken_line = ends_mid_line(&mut file)?;
    Ok(Ok((LogFile::new(file, broken_line), None)))
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
#[path = "writer_tests.rs"]
mod tests;

#[cfg(test)]
#[path = "writer_sealed_tests.rs"]
mod sealed_tests;
