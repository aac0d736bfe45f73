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
