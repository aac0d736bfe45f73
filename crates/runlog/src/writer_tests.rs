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

/// A run's log whose every write fails as on a full disk (`/dev/full`).
#[cfg(target_os = "linux")]
fn on_a_full_disk(dir: &Path) -> RunAudit {
    let file = OpenOptions::new().write(true).open("/dev/full").unwrap();
    RunAudit::from_parts(
        "r",
        dir.to_path_buf(),
        PathBuf::from("/dev/full"),
        LogFile::new(file, false),
    )
}

#[cfg(target_os = "linux")]
#[test]
fn a_full_disk_is_remembered_not_panicked_and_the_first_error_is_kept() {
    let dir = tempfile::tempdir().unwrap();
    let audit = on_a_full_disk(dir.path());
    audit.write(&envelope(0));
    audit.flush();
    let first = audit.error().unwrap();
    assert!(first.starts_with("cannot write /dev/full: "), "{first}");
    audit.write(&envelope(1));
    audit.flush();
    assert_eq!(audit.error().unwrap(), first);
    assert!(audit.log.lock().unwrap().broken_line);
}

#[cfg(target_os = "linux")]
#[test]
fn a_write_the_late_writer_could_not_make_is_reported_by_the_run() {
    let dir = tempfile::tempdir().unwrap();
    let audit = on_a_full_disk(dir.path());
    audit.write(&envelope(0));
    eventually("the late writer's failure reaches the run", || audit.error().is_some());
    assert!(audit.error().unwrap().starts_with("cannot write /dev/full: "));
}

// The late writer runs on its own thread: wait for it with `eventually`.
use vibe_test_support::eventually;

fn delta(seq: u64) -> Envelope {
    Envelope { event: Event::AssistantDelta { text: format!("片段{seq}") }, ..envelope(seq) }
}

fn lines_on_disk(audit: &RunAudit) -> usize {
    std::fs::read_to_string(audit.events_path()).unwrap().lines().count()
}

/// Held by tests that look at what has not been written yet, and by the one that asks the
/// process's late writer to write everything (test threads share one late writer).
static LATE_WRITER: Mutex<()> = Mutex::new(());

#[test]
fn lines_wait_in_memory_and_go_out_together_in_order() {
    let _alone = LATE_WRITER.lock().unwrap_or_else(|p| p.into_inner());
    let dir = tempfile::tempdir().unwrap();
    let audit = RunAudit::create(dir.path(), "r").unwrap();
    let start = Instant::now();
    audit.write(&envelope(0));
    audit.write(&delta(1));
    audit.write(&delta(2));
    audit.write(&envelope(3));
    let on_disk = lines_on_disk(&audit);
    // Only a machine that stalled this thread for DELTA_FLUSH may have written them already.
    if start.elapsed() < DELTA_FLUSH {
        assert_eq!(on_disk, 0, "they wait for each other");
    }
    audit.write(&delta(4));
    let path = audit.events_path().to_path_buf();
    drop(audit);
    let text = std::fs::read_to_string(&path).unwrap();
    let seqs: Vec<u64> =
        text.lines().map(|l| serde_json::from_str::<Envelope>(l).unwrap().seq).collect();
    assert_eq!(seqs, [0, 1, 2, 3, 4], "closing the log writes what waited, in order, once");
}

/// A run that waits (for the model, a tool, the person) has its lines on disk meanwhile.
#[test]
fn lines_nothing_follows_are_written_while_the_run_waits() {
    let dir = tempfile::tempdir().unwrap();
    let audit = RunAudit::create(dir.path(), "r").unwrap();
    audit.write(&envelope(0));
    audit.write(&Envelope { event: Event::RoundStarted { round: 1 }, ..envelope(1) });
    eventually("both lines on disk", || lines_on_disk(&audit) == 2);
    audit.write(&delta(2));
    eventually("the next line too", || lines_on_disk(&audit) == 3);
    assert!(audit.error().is_none());
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
    audit.flush();
    let text = std::fs::read_to_string(&path).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 3);
    assert!(lines[2].contains(r#""seq":2"#), "{text}");
    assert!(audit.error().is_none());
    assert_eq!(audit.blob_counter(), 1);
}

/// A front end that ends the process without closing its runs (`std::process::exit`) first
/// has every waiting line written.
#[test]
fn waiting_lines_are_written_on_request_before_the_process_ends() {
    let _alone = LATE_WRITER.lock().unwrap_or_else(|p| p.into_inner());
    let dir = tempfile::tempdir().unwrap();
    let audit = RunAudit::create(dir.path(), "r").unwrap();
    audit.write(&envelope(0));
    audit.write(&delta(1));
    super::super::write_waiting(Duration::from_secs(10));
    assert_eq!(lines_on_disk(&audit), 2);
}
