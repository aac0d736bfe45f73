use std::sync::{Arc, Mutex};

use serde_json::json;

use super::*;
use crate::LOCAL_USER as U;
use crate::change::PRUNE_EVERY;
use crate::losses::losses_of_merge;
use crate::{AppendCap, StateStatus};

fn journal(store: &Store, n: usize) {
    for i in 0..n {
        store
            .append_to_list(U, "coach", "journal", json!({"text": format!("day {i}")}), 1000)
            .unwrap();
    }
}

fn state_text(store: &Store) -> String {
    store.read_state(U, "coach", None).unwrap().data.to_string()
}

fn skill() -> HistoryTarget {
    HistoryTarget::Skill("coach".into())
}

#[test]
fn a_wiped_list_comes_back_byte_identical_and_the_undo_can_be_undone() {
    let store = Store::open_in_memory().unwrap();
    journal(&store, 50);
    store.write_state(U, "coach", "goals", json!({"q1": "run"})).unwrap();
    let before = state_text(&store);
    let by = ChangeBy::Model { run_id: "run-1".into() };
    store.write_state_by(U, "coach", "journal", json!({}), &by).unwrap();
    assert_eq!(store.read_state(U, "coach", None).unwrap().data["journal"], json!({}));

    let history = store.state_history(U, &skill(), 10).unwrap();
    assert_eq!(history[0].by, by);
    assert_eq!(history[0].path, "journal");
    assert_eq!(history[0].summary, "journal: a list of 50 entries → an empty object");
    assert_eq!(history[1].summary, "goals: nothing → an object with 1 field");
    assert_eq!(history[2].summary, "journal: 49 → 50 entries");
    assert_eq!(history[0].by, ChangeBy::Model { run_id: "run-1".into() });
    assert_eq!(history[1].by, ChangeBy::App);

    let undone = store.undo(U, &skill(), None, &ChangeBy::Cli).unwrap();
    assert_eq!(undone.changes_reverted, 1);
    assert_eq!(state_text(&store), before, "all 50 entries back, byte for byte");
    assert_eq!(undone.value.to_string(), before);

    // The undo is a change of its own: undoing it wipes the journal again.
    let newest = &store.state_history(U, &skill(), 1).unwrap()[0];
    assert_eq!(
        (newest.id, newest.path.as_str(), &newest.by),
        (undone.recorded_as, "*", &ChangeBy::Cli)
    );
    store.undo(U, &skill(), None, &ChangeBy::Cli).unwrap();
    assert_eq!(store.read_state(U, "coach", None).unwrap().data["journal"], json!({}));

    // Appending after an undo keeps working on the restored (inline) list.
    store.undo(U, &skill(), None, &ChangeBy::Cli).unwrap();
    let out = store.append_to_list(U, "coach", "journal", json!({"text": "next"}), 1000).unwrap();
    assert_eq!(out.length, 51);
}

#[test]
fn undo_to_an_id_reverts_that_change_and_every_later_one() {
    let store = Store::open_in_memory().unwrap();
    store.write_state(U, "coach", "goals", json!({"a": 1})).unwrap();
    let first = store.state_history(U, &skill(), 1).unwrap()[0].id;
    store.write_state(U, "coach", "goals", json!({"b": 2})).unwrap();
    store.write_state(U, "coach", "mood", json!({"today": "ok"})).unwrap();
    let undone = store.undo(U, &skill(), Some(first), &ChangeBy::Cli).unwrap();
    assert_eq!(undone.changes_reverted, 3);
    assert_eq!(store.read_state(U, "coach", None).unwrap().status, StateStatus::Empty);

    let err = store.undo(U, &skill(), Some(9999), &ChangeBy::Cli).unwrap_err();
    assert_eq!(err.kind().as_str(), "not_found");
    assert!(err.to_string().contains("no recorded change #9999"), "{err}");
    let err =
        store.undo(U, &HistoryTarget::Skill("other".into()), None, &ChangeBy::Cli).unwrap_err();
    assert!(err.to_string().contains("skill other has no recorded changes"), "{err}");
    // Another skill's ids are not this skill's.
    store.write_state(U, "other", "x", json!({"y": 1})).unwrap();
    let other = store.state_history(U, &HistoryTarget::Skill("other".into()), 1).unwrap()[0].id;
    assert!(store.undo(U, &skill(), Some(other), &ChangeBy::Cli).is_err());
}

#[test]
fn the_profile_has_its_own_history_and_imports_are_recorded() {
    let store = Store::open_in_memory().unwrap();
    store.set_path(U, "birth_info.date", json!("1990-01-01")).unwrap();
    store.set_path(U, "birth_info.date", json!("1991-02-02")).unwrap();
    let history = store.state_history(U, &HistoryTarget::Profile, 10).unwrap();
    assert_eq!(history[0].summary, "birth_info.date: \"1990-01-01\" → \"1991-02-02\"");
    store.undo(U, &HistoryTarget::Profile, None, &ChangeBy::App).unwrap();
    assert_eq!(store.profile(U).unwrap()["birth_info"]["date"], "1990-01-01");

    store.write_state(U, "coach", "goals", json!({"a": 1})).unwrap();
    let before = store.profile(U).unwrap();
    store.import_profile(U, json!({"account": {"name": "x"}})).unwrap();
    assert_eq!(store.profile(U).unwrap()["skills"], json!({}));
    let skill_change = &store.state_history(U, &skill(), 1).unwrap()[0];
    assert_eq!(skill_change.by, ChangeBy::Import);
    store.undo(U, &skill(), None, &ChangeBy::App).unwrap();
    store.undo(U, &HistoryTarget::Profile, None, &ChangeBy::App).unwrap();
    assert_eq!(store.profile(U).unwrap(), before);
}

#[test]
fn the_history_is_bounded_per_target() {
    let store = Store::open_in_memory().unwrap();
    for i in 0..(HISTORY_ROWS + 5) {
        store.write_state(U, "coach", "n", json!({"i": i})).unwrap();
    }
    store.write_state(U, "other", "n", json!({"i": 0})).unwrap();
    let all = store.state_history(U, &skill(), 1000).unwrap();
    let kept = all.len() as i64;
    assert!((HISTORY_ROWS..HISTORY_ROWS + PRUNE_EVERY).contains(&kept), "{kept}");
    assert_eq!(all.last().unwrap().id, all[0].id - kept + 1, "the oldest went first");
    assert_eq!(all[0].summary, "n: an object with 1 field → an object with 1 field");
    assert_eq!(store.state_history(U, &HistoryTarget::Skill("other".into()), 10).unwrap().len(), 1);
}

#[test]
fn a_failed_write_records_nothing() {
    let store = Store::open_in_memory().unwrap();
    store.write_state(U, "coach", "goals", json!({"a": "text"})).unwrap();
    assert!(store.set_path(U, "skills.coach.goals.a.deeper", json!(1)).is_err());
    assert_eq!(store.state_history(U, &skill(), 10).unwrap().len(), 1);
}

#[test]
fn losses_name_what_a_merge_would_remove() {
    let current = json!({
        "journal": [1, 2, 3],
        "goals": {"q1": {"title": "run"}, "q2": "swim"},
        "empty": [],
        "note": "x"
    });
    assert_eq!(
        losses_of_merge(&current, &json!({"journal": {}})),
        vec!["replaces journal (a list of 3 entries) with an empty object"]
    );
    assert_eq!(
        losses_of_merge(&current, &json!({"goals": {"q1": null, "q2": "bike"}})),
        vec!["deletes goals.q1 (an object with 1 field)"]
    );
    assert_eq!(
        losses_of_merge(&current, &json!({"journal": [9]})),
        vec!["replaces journal (a list of 3 entries) with a list of 1 entry"]
    );
    assert!(
        losses_of_merge(&current, &json!({"goals": {"q3": 1}, "empty": {}, "note": "y"}))
            .is_empty()
    );
}

#[test]
fn every_kind_of_change_inverts_exactly_back_to_any_point() {
    let store = Store::open_in_memory().unwrap();
    let mut points = vec![(None, state_text(&store))];
    let mut step = |store: &Store| {
        let id = store.state_history(U, &skill(), 1).unwrap()[0].id;
        points.push((Some(id), state_text(store)));
    };
    store.write_state(U, "coach", "goals", json!({"q1": "run", "q2": {"a": [1, 2]}})).unwrap();
    step(&store);
    for i in 0..5 {
        let entry = json!({"text": format!("day {i}"), "n": 1.5});
        store.append_to_list(U, "coach", "journal", entry, 3).unwrap();
        step(&store);
    }
    store.append_to_list(U, "coach", "progress.milestones", json!({"m": 1}), 10).unwrap();
    step(&store);
    store.write_state(U, "coach", "goals", json!({"q2": null, "q3": true})).unwrap();
    step(&store);
    store.write_state(U, "coach", "goals", json!({"q1": null, "q3": null})).unwrap();
    step(&store);
    store.set_path(U, "skills.coach.journal", json!(null)).unwrap();
    step(&store);
    store.append_to_list(U, "coach", "journal", json!({"text": "again"}), 2).unwrap();
    step(&store);
    store.append_to_list(U, "coach", "journal", json!({"text": "and again"}), 1).unwrap();
    step(&store);

    // From the newest state, undoing back to each change gives the state before it.
    let snapshot_at = |i: usize| points[i].1.clone();
    for i in (1..points.len()).rev() {
        let id = points[i].0.unwrap();
        let undone = store.undo(U, &skill(), Some(id), &ChangeBy::Cli).unwrap();
        let expected = snapshot_at(i - 1);
        assert_eq!(state_text(&store), expected, "undo to before #{id} (step {i})");
        // Redo (undo the undo) and go on from the newest state again.
        store.undo(U, &skill(), Some(undone.recorded_as), &ChangeBy::Cli).unwrap();
        assert_eq!(state_text(&store), snapshot_at(points.len() - 1), "redo of step {i}");
    }
}

/// A store whose writes are stamped with a clock the test moves on.
fn store_at(
    start: chrono::DateTime<chrono::Utc>,
) -> (Store, Arc<Mutex<chrono::DateTime<chrono::Utc>>>) {
    let store = Store::open_in_memory().unwrap();
    let now = Arc::new(Mutex::new(start));
    let at = now.clone();
    store.set_clock(Arc::new(move || *at.lock().unwrap()));
    (store, now)
}

fn ids(store: &Store) -> Vec<i64> {
    store.state_history(U, &skill(), 10_000).unwrap().iter().map(|c| c.id).collect()
}

/// Issue 28: the history kept 200 changes, so an entry an append dropped was lost for good a
/// few turns later. A destructive change now outlives any number of ordinary ones.
#[test]
fn a_destructive_change_survives_300_ordinary_changes_and_stays_undoable() {
    let (store, _) = store_at(chrono::Utc::now());
    journal(&store, 10);
    let before = state_text(&store);
    let by = ChangeBy::Model { run_id: "r".into() };
    let cap = AppendCap { max_items: Some(10), may_drop: true };
    store.append_to_list_by(U, "coach", "journal", json!({"text": "x"}), cap, &by).unwrap();
    let trim = store.state_history(U, &skill(), 1).unwrap()[0].id;
    for i in 0..300 {
        store.write_state(U, "coach", "counter", json!({"n": i})).unwrap();
    }
    assert!(ids(&store).contains(&trim), "the trim is still in the history");
    store.undo(U, &skill(), Some(trim), &ChangeBy::Cli).unwrap();
    assert_eq!(state_text(&store), before, "the dropped entry is back");
}

#[test]
fn a_destructive_change_is_pruned_only_after_90_days() {
    let start = chrono::Utc::now();
    let (store, now) = store_at(start);
    journal(&store, 3);
    store.write_state_by(U, "coach", "journal", json!({}), &ChangeBy::Cli).unwrap();
    let wipe = store.state_history(U, &skill(), 1).unwrap()[0].id;
    let ordinary = |store: &Store| {
        for i in 0..40 {
            store.write_state(U, "coach", "counter", json!({"n": i})).unwrap();
        }
    };
    *now.lock().unwrap() = start + chrono::Duration::days(89);
    ordinary(&store);
    let left = ids(&store);
    assert!(left.contains(&wipe), "kept at 89 days");
    assert_eq!(left.iter().filter(|&&id| id >= wipe).count(), 41, "with everything after it");
    *now.lock().unwrap() = start + chrono::Duration::days(91);
    ordinary(&store);
    assert!(ids(&store).contains(&wipe), "not cleared by the person: kept after 90 days too");
    let cleared = store.clear_history(U, &skill()).unwrap();
    assert_eq!((cleared.kept, cleared.kept_until), (0, None), "cleared and old: it goes");
    assert!(ids(&store).is_empty(), "{:?}", ids(&store));
}

/// "Until the person clears it or 90 days pass, whichever is later": clearing a young
/// destructive change keeps it (and what followed) until its 90 days are up, then it goes.
#[test]
fn a_cleared_destructive_change_stays_until_its_90_days_pass() {
    let start = chrono::Utc::now();
    let (store, now) = store_at(start);
    journal(&store, 3);
    let (before_wipe, full) = (ids(&store).len(), state_text(&store));
    store.write_state_by(U, "coach", "journal", json!({}), &ChangeBy::Cli).unwrap();
    let wipe = store.state_history(U, &skill(), 1).unwrap()[0].id;
    *now.lock().unwrap() = start + chrono::Duration::days(10);
    store.write_state(U, "coach", "counter", json!({"n": 1})).unwrap();
    let cleared = store.clear_history(U, &skill()).unwrap();
    assert_eq!(cleared.removed, before_wipe, "the ordinary changes before the wipe went");
    assert_eq!(cleared.kept, 2, "the wipe and the change after it stay");
    let until =
        chrono::DateTime::parse_from_rfc3339(cleared.kept_until.as_deref().unwrap()).unwrap();
    assert_eq!(until.to_utc().date_naive(), (start + chrono::Duration::days(90)).date_naive());
    store.undo(U, &skill(), Some(wipe), &ChangeBy::Cli).unwrap();
    assert_eq!(state_text(&store), full, "still undoable after clearing");
    *now.lock().unwrap() = start + chrono::Duration::days(91);
    for i in 0..16 {
        store.write_state(U, "coach", "counter", json!({"n": i})).unwrap();
    }
    assert!(ids(&store).iter().all(|&id| id > wipe), "gone after 90 days: {:?}", ids(&store));
}

#[test]
fn an_append_that_would_drop_entries_unasked_is_refused_and_writes_nothing() {
    let store = Store::open_in_memory().unwrap();
    journal(&store, 5);
    let before = (state_text(&store), ids(&store));
    let by = ChangeBy::Model { run_id: "r".into() };
    for max in [5, 3] {
        let cap = AppendCap { max_items: Some(max), may_drop: false };
        let err = store
            .append_to_list_by(U, "coach", "journal", json!({"text": "x"}), cap, &by)
            .unwrap_err();
        assert!(matches!(err, StoreError::ListWouldShrink { length: 5, .. }), "{err}");
        assert!(err.to_string().contains("needs the person's approval"), "{err}");
        assert_eq!((state_text(&store), ids(&store)), before);
    }
    let out = store
        .append_to_list_by(U, "coach", "journal", json!({"text": "x"}), AppendCap::NONE, &by)
        .unwrap();
    assert_eq!((out.length, out.dropped), (6, 0));
}
