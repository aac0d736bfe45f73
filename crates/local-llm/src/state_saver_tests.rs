//! Tests of the saver thread: what is handed over reaches the file (the newest of a
//! conversation), is found before it is written, never outlives a deletion (which removes the
//! conversation's file and no other), and a flush waits for an answer still handing one over.

use super::*;
use crate::saved_state::Ignored;
use crate::saved_state::tests::{state_bytes, states};

/// A state large enough that sealing and writing it takes a while (a real one is ~100 MB).
fn big_state(fill: u8) -> SavedState {
    SavedState { tokens: vec![1, 2, 3], state: vec![fill; 8 << 20] }
}

const WAIT: Duration = Duration::from_secs(60);

#[test]
fn the_newest_state_handed_over_is_the_one_on_disk() {
    let dir = tempfile::tempdir().unwrap();
    let saved = states(dir.path(), 1, DEFAULT_CAP);
    save(&saved, "conv-1", "model-a", big_state(1));
    save(&saved, "conv-1", "model-a", big_state(2));
    assert!(flush(WAIT));
    let back = saved.load("conv-1", "model-a").unwrap();
    assert_eq!(back.state, big_state(2).state);
    assert!(unwritten(&saved, "conv-1", "model-a").is_none());
}

#[test]
fn a_state_not_yet_written_is_found_for_its_model_and_key_only() {
    let dir = tempfile::tempdir().unwrap();
    let saved = states(dir.path(), 2, DEFAULT_CAP);
    let entry = |fill: u8| Entry {
        path: state_file(saved.dir(), "conv-2"),
        states: saved.clone(),
        key: "conv-2".into(),
        model_id: "model-a".into(),
        saved: Arc::new(big_state(fill)),
    };
    let path = state_file(saved.dir(), "conv-2");
    let mut queue = Queue { writing: Some(entry(1)), ..Queue::default() };
    assert_eq!(queue.find(&path, &saved, "model-a").unwrap().state, big_state(1).state);
    queue.waiting.push_back(entry(2));
    // The waiting one is newer than the one being written.
    assert_eq!(queue.find(&path, &saved, "model-a").unwrap().state, big_state(2).state);
    assert!(queue.find(&path, &saved, "model-b").is_none());
    assert!(queue.find(&path, &states(dir.path(), 9, DEFAULT_CAP), "model-a").is_none());
    assert!(queue.find(&state_file(saved.dir(), "conv-x"), &saved, "model-a").is_none());
}

#[test]
fn a_deleted_conversation_keeps_no_state_handed_over_before() {
    let data = tempfile::tempdir().unwrap();
    let saved = states(data.path(), 4, DEFAULT_CAP);
    for round in 0..3u8 {
        save(&saved, "conv-3", "model-a", big_state(round));
        save(&saved, "conv-4", "model-a", big_state(round));
        delete_saved_state(data.path(), "conv-3").unwrap();
        assert!(flush(WAIT));
        assert!(!state_file(saved.dir(), "conv-3").exists(), "round {round}");
        assert!(state_file(saved.dir(), "conv-4").exists(), "round {round}");
    }
}

#[test]
fn a_flush_waits_for_an_answer_still_handing_its_state_over() {
    let dir = tempfile::tempdir().unwrap();
    let saved = states(dir.path(), 5, DEFAULT_CAP);
    let (started, wait_started) = std::sync::mpsc::channel();
    let answer = {
        let saved = saved.clone();
        std::thread::spawn(move || {
            let busy = Busy::start();
            started.send(()).unwrap();
            std::thread::sleep(Duration::from_millis(50));
            save(&saved, "conv-5", "model-a", big_state(5));
            drop(busy);
        })
    };
    wait_started.recv().unwrap();
    assert!(flush(WAIT));
    assert!(state_file(saved.dir(), "conv-5").exists());
    answer.join().unwrap();
}

const DEFAULT_CAP: u64 = crate::saved_state::DEFAULT_STATES_CAP_BYTES;

#[test]
fn deleting_a_conversations_state_removes_its_file() {
    let dir = tempfile::tempdir().unwrap();
    let saved = states(dir.path(), 1, DEFAULT_CAP);
    saved.save("conv-1", "model-a", &[1], &state_bytes()).unwrap();
    saved.save("conv-2", "model-a", &[1], &state_bytes()).unwrap();
    delete_saved_state(dir.path(), "conv-1").unwrap();
    assert!(!state_file(saved.dir(), "conv-1").exists());
    assert_eq!(saved.load("conv-1", "model-a"), Err(Ignored::Missing));
    assert!(saved.load("conv-2", "model-a").is_ok());
    delete_saved_state(dir.path(), "conv-1").unwrap(); // nothing left: fine
}
