//! Reminder notices: claimed once per run, step and time, kept across reopening the file.

use crate::{LOCAL_USER, NewProtocolRun, Store};

fn start(store: &Store, id: &str) {
    store
        .start_protocol_run(&NewProtocolRun {
            id,
            user: LOCAL_USER,
            skill: "lifecoach",
            protocol_id: "dankoe",
            protocol_version: 1,
            total_steps: 6,
            conversation_id: None,
            model: None,
            now: "2026-01-20T10:00:00Z",
        })
        .unwrap();
}

#[test]
fn a_reminder_is_claimed_once_and_stays_claimed_after_reopening() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("vibe.db");
    {
        let store = Store::open(&file).unwrap();
        start(&store, "r1");
        assert!(!store.reminder_notified("r1", 4, "11:00").unwrap());
        assert!(store.claim_reminder_notice("r1", 4, "11:00").unwrap(), "first claim");
        assert!(!store.claim_reminder_notice("r1", 4, "11:00").unwrap(), "second claim");
        assert!(store.reminder_notified("r1", 4, "11:00").unwrap());
        assert!(!store.reminder_notified("r1", 4, "13:30").unwrap(), "another time");
        assert!(!store.reminder_notified("r1", 5, "11:00").unwrap(), "another step");
    }
    let store = Store::open(&file).unwrap();
    assert!(store.reminder_notified("r1", 4, "11:00").unwrap(), "kept in the file");
    assert!(!store.claim_reminder_notice("r1", 4, "11:00").unwrap());
}

#[test]
fn a_notice_needs_its_run() {
    let store = Store::open_in_memory().unwrap();
    assert!(store.claim_reminder_notice("missing", 1, "11:00").is_err());
}
