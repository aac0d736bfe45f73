//! Tests of sealing clear run folders at open: every clear file sealed and read back the same,
//! a killed attempt's leftover removed, a live run left for later, the marker written once.

use super::*;
use crate::{RunAudit, RunFolders, read_events};

const LINES: &str = "{\"run_id\":\"r1\",\"seq\":0,\"ts\":\"t\",\"type\":\"assistant_delta\",\"text\":\"我想辞职\"}\n\
{\"run_id\":\"r1\",\"seq\":1,\"ts\":\"t\",\"type\":\"round_started\",\"round\":1}\n{\"run_id\":\"r1\",\"se";

fn clear_run(data: &Path, id: &str) -> std::path::PathBuf {
    let dir = data.join(RUNS_DIR).join(id);
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join(EVENTS_FILE), LINES).unwrap();
    std::fs::write(dir.join("tool-1-read_state.json"), "{\"journal\":\"我想辞职\"}").unwrap();
    std::fs::write(dir.join("unsaved"), "disk full").unwrap();
    dir
}

fn holds(path: &Path, text: &str) -> bool {
    let bytes = std::fs::read(path).unwrap();
    bytes.windows(text.len()).any(|w| w == text.as_bytes())
}

#[test]
fn clear_run_files_are_sealed_once_and_read_back_the_same() {
    let data = tempfile::tempdir().unwrap();
    let dir = clear_run(data.path(), "r1");
    let before = read_events(data.path(), "r1").unwrap();
    // A killed earlier attempt left its half-written copy.
    std::fs::write(dir.join(".events.jsonl.sealing"), "half").unwrap();
    let key = Arc::new(RunKey::new(&[5; 32]));
    let runs = RunFolders::new(data.path(), Some((*key).clone()));

    let report = seal_clear_runs(data.path(), &key);
    assert_eq!(report, SealReport { files: 2, left: vec![] });
    assert!(!dir.join(".events.jsonl.sealing").exists());
    assert!(data.path().join(RUNS_DIR).join(SEALED_MARKER).exists());
    for file in [EVENTS_FILE, "tool-1-read_state.json"] {
        assert!(!holds(&dir.join(file), "我想辞职"), "{file} is sealed");
    }
    let after = runs.read_events("r1").unwrap();
    assert_eq!(after.lines, before.lines);
    assert_eq!(after.truncated_line.is_some(), before.truncated_line.is_some());
    assert!(after.sealed);
    assert_eq!(
        runs.read_run_file("r1", "tool-1-read_state.json").unwrap(),
        "{\"journal\":\"我想辞职\"}".as_bytes()
    );
    assert_eq!(std::fs::read_to_string(dir.join("unsaved")).unwrap(), "disk full");

    // The marker says it is done: a clear file appearing later is not walked to.
    clear_run(data.path(), "r2");
    assert_eq!(seal_clear_runs(data.path(), &key), SealReport::default());
}

#[test]
fn a_run_still_going_on_is_left_for_a_later_open() {
    let data = tempfile::tempdir().unwrap();
    clear_run(data.path(), "r1");
    let live = RunAudit::create(data.path(), "live").unwrap();
    let key = Arc::new(RunKey::new(&[5; 32]));
    let report = seal_clear_runs(data.path(), &key);
    assert_eq!(report.files, 2);
    assert_eq!(report.left.len(), 1, "{:?}", report.left);
    assert!(report.left[0].contains("going on in another process"));
    assert!(!data.path().join(RUNS_DIR).join(SEALED_MARKER).exists());
    drop(live);
    let report = seal_clear_runs(data.path(), &key);
    assert_eq!(report, SealReport { files: 0, left: vec![] }, "an empty log stays as it is");
    assert!(data.path().join(RUNS_DIR).join(SEALED_MARKER).exists());
}
