//! Tests of sealed logs as the writer leaves them: no clear text, chained records read back
//! whole and closed (also when the late writer wrote some batches), an interrupted log told
//! apart, and a reopened one.

use super::*;
use crate::{Integrity, RunFolders};
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
    let runs = RunFolders::new(dir.path(), Some(RunKey::new(&[4; 32])));
    let audit = runs.create("r").unwrap();
    audit.write(&said(0, "我不想再加班了"));
    let big = serde_json::json!({"journal": "失眠".repeat(super::super::EXTERNALIZE_THRESHOLD)});
    let (_, file) = audit.externalize("read_state", &big);
    let file = file.unwrap();
    let path = audit.events_path().to_path_buf();
    drop(audit);
    assert!(!holds(&path, "我不想再加班了"));
    assert!(!holds(&dir.path().join("runs/r").join(&file), "失眠"));
    let whole: serde_json::Value =
        serde_json::from_slice(&runs.read_run_file("r", &file).unwrap()).unwrap();
    assert_eq!(whole, big);

    let log = runs.read_events("r").unwrap();
    assert_eq!(log.integrity, Integrity::Closed { records: 1 });
    assert!(log.notices().is_empty(), "{:?}", log.notices());

    // Reopened, it continues the chain after its closing record.
    let audit = runs.create("r").unwrap();
    audit.write(&said(1, "然后呢"));
    drop(audit);
    let log = runs.read_events("r").unwrap();
    let seqs: Vec<u64> = log.events.iter().map(|e| e.seq).collect();
    assert_eq!(seqs, [0, 1]);
    assert_eq!(log.integrity, Integrity::Closed { records: 3 });

    // Reopened after a kill cut its last record: the cut record, now inside, is named as the
    // damage (its events are lost) and the events before it are read.
    let mut f = OpenOptions::new().append(true).open(&path).unwrap();
    f.write_all(b"AAAAbbbbCCCC").unwrap();
    let audit = runs.create("r").unwrap();
    audit.write(&said(2, "再说"));
    drop(audit);
    let log = runs.read_events("r").unwrap();
    assert_eq!(log.events.len(), 2);
    assert!(
        matches!(log.integrity, Integrity::Damaged { line: 6, lines_after: 2, .. }),
        "{:?}",
        log.integrity
    );
}

#[test]
fn batches_written_by_the_late_writer_chain_in_order_and_closing_counts_them() {
    let dir = tempfile::tempdir().unwrap();
    let runs = RunFolders::new(dir.path(), Some(RunKey::new(&[6; 32])));
    let audit = runs.create("r").unwrap();
    for seq in 0..6 {
        audit.write(&said(seq, "字"));
        if seq % 2 == 1 {
            // Longer than DELTA_FLUSH: the late writer writes this batch.
            std::thread::sleep(DELTA_FLUSH * 3);
        }
    }
    let path = audit.events_path().to_path_buf();
    drop(audit);
    let records = std::fs::read(&path).unwrap().split(|b| *b == b'\n').count() - 3;
    assert!(records >= 3, "written in batches: {records}");
    let log = runs.read_events("r").unwrap();
    assert_eq!(log.events.iter().map(|e| e.seq).collect::<Vec<_>>(), [0, 1, 2, 3, 4, 5]);
    assert_eq!(log.integrity, Integrity::Closed { records: records as u64 });
    assert!(log.notices().is_empty() && log.is_intact());
}

#[test]
fn a_log_whose_process_was_killed_ends_without_its_closing_record() {
    let key = RunKey::new(&[6; 32]);
    let dir = tempfile::tempdir().unwrap();
    let runs = RunFolders::new(dir.path(), Some(key.clone()));
    let audit = runs.create("r").unwrap();
    audit.write(&said(0, "a"));
    audit.flush();
    let live = runs.read_events("r").unwrap();
    assert!(
        matches!(live.integrity, Integrity::Unclosed { live: true, .. }),
        "{:?}",
        live.integrity
    );
    assert!(live.notices()[0].contains("still going on"), "{:?}", live.notices());
    // What a kill leaves: the bytes written so far, no process holding them.
    let bytes = std::fs::read(audit.events_path()).unwrap();
    let other = tempfile::tempdir().unwrap();
    let others = RunFolders::new(other.path(), Some(key));
    std::fs::create_dir_all(other.path().join("runs/r")).unwrap();
    std::fs::write(other.path().join("runs/r").join(EVENTS_FILE), bytes).unwrap();
    let log = others.read_events("r").unwrap();
    assert_eq!(log.integrity, Integrity::Unclosed { records: 1, cut_line: None, live: false });
    assert_eq!(log.events.len(), 1);
    let notice = log.problem().unwrap();
    assert!(
        notice.contains("run r: its log ends without its closing record (the run was interrupted or the file was cut)"),
        "{notice}"
    );
}

#[test]
fn a_header_cut_by_a_kill_is_started_again_and_a_clear_log_is_not_appended_sealed() {
    let dir = tempfile::tempdir().unwrap();
    let run = dir.path().join("runs/r");
    std::fs::create_dir_all(&run).unwrap();
    std::fs::write(run.join(EVENTS_FILE), "#vibelife-sea").unwrap();
    let runs = RunFolders::new(dir.path(), Some(RunKey::new(&[4; 32])));
    let audit = runs.create("r").unwrap();
    audit.write(&said(0, "hi"));
    drop(audit);
    assert_eq!(runs.read_events("r").unwrap().events.len(), 1);

    std::fs::create_dir_all(dir.path().join("runs/old")).unwrap();
    std::fs::write(dir.path().join("runs/old").join(EVENTS_FILE), "{\"seq\":0}\n").unwrap();
    let err = runs.create("old").err().unwrap();
    assert!(matches!(err, RunLogError::RunSealed { .. }), "{err}");
    assert!(err.to_string().contains("clear-text log"), "{err}");
}
