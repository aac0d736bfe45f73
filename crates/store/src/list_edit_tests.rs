//! A list entry edited in place: found by its `_created_at`, the others untouched, undoable,
//! and a missing entry refused without a change.

use serde_json::{Value, json};

use crate::undo::{ChangeBy, HistoryTarget};
use crate::{LOCAL_USER as U, Store};

fn journal(store: &Store) -> Vec<Value> {
    store.read_state(U, "coach", None).unwrap().data["journal"].as_array().unwrap().clone()
}

#[test]
fn an_entry_is_replaced_in_place_and_the_edit_can_be_undone() {
    let store = Store::open_in_memory().unwrap();
    for i in 0..3 {
        store
            .append_to_list(U, "coach", "journal", json!({"text": format!("day {i}")}), 100)
            .unwrap();
    }
    let before = journal(&store);
    let created = before[1]["_created_at"].as_str().unwrap().to_string();
    let stored = store
        .edit_list_entry(
            U,
            "coach",
            "journal",
            1,
            &created,
            json!({"text": "day one, rewritten", "mood": 7, "_created_at": "forged"}),
        )
        .unwrap();
    assert_eq!(
        stored["_created_at"],
        created.as_str(),
        "the stamp is kept, not taken from the edit"
    );
    assert!(stored["_edited_at"].is_string());
    let after = journal(&store);
    assert_eq!(after.len(), 3);
    assert_eq!(after[1]["text"], "day one, rewritten");
    assert_eq!(after[1]["mood"], 7);
    assert_eq!((&after[0], &after[2]), (&before[0], &before[2]), "the others stay, in order");
    let history = store.state_history(U, &HistoryTarget::Skill("coach".into()), 1).unwrap();
    assert_eq!(history[0].summary, format!("journal: the entry of {created} edited"));
    store.undo(U, &HistoryTarget::Skill("coach".into()), None, &ChangeBy::Cli).unwrap();
    assert_eq!(journal(&store), before, "undo brings the old entry back");
}

#[test]
fn a_missing_entry_or_list_is_refused_and_nothing_changes() {
    let store = Store::open_in_memory().unwrap();
    store.append_to_list(U, "coach", "journal", json!({"text": "day 0"}), 100).unwrap();
    let before = journal(&store);
    let err = store
        .edit_list_entry(U, "coach", "journal", 0, "2001-01-01T00:00:00Z", json!({"text": "x"}))
        .unwrap_err();
    assert!(
        err.to_string().contains("no entry created at 2001-01-01T00:00:00Z in list \"journal\""),
        "{err}"
    );
    assert_eq!(err.kind(), vibe_wire::ErrorKind::NotFound);
    let created = before[0]["_created_at"].as_str().unwrap();
    assert!(
        store.edit_list_entry(U, "coach", "journal", 1, created, json!({"text": "x"})).is_err(),
        "no entry 1"
    );
    assert!(store.edit_list_entry(U, "coach", "notes", 0, created, json!({"text": "x"})).is_err());
    assert!(store.edit_list_entry(U, "coach", "journal", 0, created, json!("text")).is_err());
    assert_eq!(journal(&store), before);
}
