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
    let big = serde_json::json!({"journal": "失眠".repeat(super::super::EXTERNALIZE_THRESHOLD)});
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
