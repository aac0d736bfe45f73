//! A list entry edited in place: found by its `_created_at`, the others untouched, undoable,
//! and a missing entry refused without a change.

use serde_json::{Value, json};

use crate::change::{ChangeBy, HistoryTarget};
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

#[test]
fn an_entry_removed_by_the_person_is_gone_the_others_stay_and_undo_brings_it_back() {
    let (store, now) = stepping_store();
    for i in 0..3 {
        store
            .append_to_list(U, "coach", "journal", json!({"text": format!("day {i}")}), 100)
            .unwrap();
        *now.lock().unwrap() += chrono::Duration::seconds(1);
    }
    let before = journal(&store);
    let created = before[1]["_created_at"].as_str().unwrap().to_string();
    let removed =
        store.remove_list_entry_by(U, "coach", "journal", 1, &created, &ChangeBy::Cli).unwrap();
    assert_eq!(removed["text"], "day 1");
    let after = journal(&store);
    assert_eq!(after, vec![before[0].clone(), before[2].clone()], "the others stay, in order");
    let target = HistoryTarget::Skill("coach".into());
    let history = store.state_history(U, &target, 1).unwrap();
    assert_eq!(history[0].summary, format!("journal: the entry of {created} removed"));
    let removal = history[0].id;
    // A stale stamp (the entry moved or went) is refused and nothing changes.
    let err =
        store.remove_list_entry_by(U, "coach", "journal", 1, &created, &ChangeBy::Cli).unwrap_err();
    assert!(err.to_string().contains(&format!("no entry created at {created}")), "{err}");
    assert_eq!(journal(&store), after);
    // Kept like every destructive change, however many ordinary ones follow.
    for i in 0..300 {
        store.write_state(U, "coach", "counter", json!({"n": i})).unwrap();
    }
    store.undo(U, &target, Some(removal), &ChangeBy::Cli).unwrap();
    assert_eq!(journal(&store), before, "undo brings the removed entry back in its place");
}

#[test]
fn after_a_removal_a_capped_append_keeps_exactly_its_cap() {
    let (store, now) = stepping_store();
    for i in 0..4 {
        store.append_to_list(U, "coach", "moods", json!({"n": i}), 100).unwrap();
        *now.lock().unwrap() += chrono::Duration::seconds(1);
    }
    let created = journal_at(&store, "moods")[2]["_created_at"].as_str().unwrap().to_string();
    store.remove_list_entry_by(U, "coach", "moods", 2, &created, &ChangeBy::Cli).unwrap();
    // Three left: a fourth under a cap of four drops nothing.
    let out = store.append_to_list(U, "coach", "moods", json!({"n": 4}), 4).unwrap();
    assert_eq!((out.length, out.dropped), (4, 0), "nothing dropped below the cap");
    let ns: Vec<_> = journal_at(&store, "moods").iter().map(|e| e["n"].clone()).collect();
    assert_eq!(ns, vec![json!(4), json!(3), json!(2), json!(0)]);
    let out = store.append_to_list(U, "coach", "moods", json!({"n": 5}), 4).unwrap();
    assert_eq!((out.length, out.dropped), (4, 1), "at the cap, the oldest one goes, no more");
    let ns: Vec<_> = journal_at(&store, "moods").iter().map(|e| e["n"].clone()).collect();
    assert_eq!(ns, vec![json!(5), json!(4), json!(3), json!(2)]);
}

/// A store whose clock moves only when the test moves it.
fn stepping_store() -> (Store, std::sync::Arc<std::sync::Mutex<chrono::DateTime<chrono::Utc>>>) {
    let store = Store::open_in_memory().unwrap();
    let now = std::sync::Arc::new(std::sync::Mutex::new(chrono::Utc::now()));
    let at = now.clone();
    store.set_clock(std::sync::Arc::new(move || *at.lock().unwrap()));
    (store, now)
}

fn journal_at(store: &Store, path: &str) -> Vec<Value> {
    store.read_state(U, "coach", None).unwrap().data[path].as_array().unwrap().clone()
}

#[test]
fn entries_appended_in_the_same_millisecond_get_distinct_stamps_in_order() {
    // A clock that does not move: every append falls in the same millisecond.
    let (store, _frozen) = stepping_store();
    for i in 0..3 {
        store
            .append_to_list(U, "coach", "journal", json!({"text": format!("day {i}")}), 100)
            .unwrap();
    }
    let stamps: Vec<String> =
        journal(&store).iter().map(|e| e["_created_at"].as_str().unwrap().to_string()).collect();
    assert!(
        stamps[0] > stamps[1] && stamps[1] > stamps[2],
        "newest first, each its own: {stamps:?}"
    );
    // So a stamp names one entry: removing the middle one leaves the newest alone.
    store.remove_list_entry_by(U, "coach", "journal", 1, &stamps[1], &ChangeBy::Cli).unwrap();
    let texts: Vec<_> = journal(&store).iter().map(|e| e["text"].clone()).collect();
    assert_eq!(texts, vec![json!("day 2"), json!("day 0")]);
}
