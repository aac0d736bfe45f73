//! The op log and the merge rules at the store's level: nothing is recorded before sync is set
//! up, a batch applies once, a deleted entry stays deleted, a cap's drops travel as deletions.

use serde_json::json;

use crate::{AppendCap, ChangeBy, LOCAL_USER as U, LoggedOp, Store, SyncOp};

fn put(id: &str, text: &str, millis: u64, device: &str) -> LoggedOp {
    LoggedOp {
        hlc: crate::Hlc { millis, counter: 0, device: device.into() },
        op: SyncOp::ListPut {
            user: U.into(),
            skill: "coach".into(),
            path: "journal".into(),
            entry_id: id.into(),
            entry: json!({"text": text, "_created_at": format!("2026-01-01T00:00:0{millis}.000Z")}),
        },
    }
}

fn delete(id: &str, millis: u64) -> LoggedOp {
    LoggedOp {
        hlc: crate::Hlc { millis, counter: 0, device: "peer".into() },
        op: SyncOp::ListDelete {
            user: U.into(),
            skill: "coach".into(),
            path: "journal".into(),
            entry_id: id.into(),
        },
    }
}

fn texts(store: &Store) -> Vec<String> {
    let read = store.read_state(U, "coach", None).unwrap();
    read.data["journal"]
        .as_array()
        .map(|a| a.iter().map(|e| e["text"].as_str().unwrap().to_string()).collect())
        .unwrap_or_default()
}

#[test]
fn many_operations_are_sealed_into_batches_of_bounded_size_in_order() {
    let store = Store::open_in_memory().unwrap();
    store.sync_enable("me").unwrap();
    let n = crate::BATCH_MAX_OPS * 2 + 5;
    for i in 0..n {
        store
            .append_to_list(U, "coach", "journal", json!({"text": format!("e{i}")}), 1_000_000)
            .unwrap();
    }
    let batches = store.sync_seal().unwrap();
    let sizes: Vec<usize> = batches.iter().map(|b| b.ops.len()).collect();
    assert_eq!(sizes, vec![crate::BATCH_MAX_OPS, crate::BATCH_MAX_OPS, 5]);
    assert_eq!(batches.iter().map(|b| b.number).collect::<Vec<_>>(), vec![1, 2, 3]);
    let clocks: Vec<_> = batches.iter().flat_map(|b| b.ops.iter().map(|o| o.hlc.clone())).collect();
    assert!(clocks.windows(2).all(|w| w[0] < w[1]), "batches keep the order of writes");

    // Long entries: a batch holds about BATCH_MAX_BYTES of them.
    store.sync_uploaded(3).unwrap();
    let long = "x".repeat(crate::BATCH_MAX_BYTES / 4);
    for _ in 0..6 {
        store.append_to_list(U, "coach", "journal", json!({"text": long}), 1_000_000).unwrap();
    }
    let sizes: Vec<usize> = store.sync_seal().unwrap().iter().map(|b| b.ops.len()).collect();
    assert_eq!(sizes, vec![4, 2]);
}

#[test]
fn nothing_is_recorded_until_sync_is_set_up_then_what_exists_is() {
    let store = Store::open_in_memory().unwrap();
    store.append_to_list(U, "coach", "journal", json!({"text": "old"}), 100).unwrap();
    assert!(store.sync_device().unwrap().is_none());
    assert_eq!(store.sync_enable("me").unwrap(), 1);
    store.append_to_list(U, "coach", "journal", json!({"text": "new"}), 100).unwrap();
    let batches = store.sync_seal().unwrap();
    assert_eq!(batches.len(), 1);
    assert_eq!(batches[0].number, 1);
    assert_eq!(batches[0].ops.len(), 2);
    assert!(batches[0].ops[0].hlc < batches[0].ops[1].hlc);
    // Sealed but not written yet: the same batch again, nothing new.
    assert_eq!(store.sync_seal().unwrap(), batches);
    store.sync_uploaded(1).unwrap();
    assert!(store.sync_seal().unwrap().is_empty());
    assert_eq!(store.sync_device().unwrap().unwrap().uploaded, 1);
}

#[test]
fn a_batch_applies_once_and_the_same_operations_again_change_nothing() {
    let store = Store::open_in_memory().unwrap();
    store.sync_enable("me").unwrap();
    let ops = vec![put("e1", "one", 1, "peer"), put("e2", "two", 2, "peer")];
    let done = store.sync_apply("peer", 1, Some("laptop"), &ops).unwrap().unwrap();
    assert_eq!(done.put, 2);
    assert_eq!(store.sync_apply("peer", 1, None, &ops).unwrap(), None);
    let again = store.sync_apply("peer", 2, None, &ops).unwrap().unwrap();
    assert_eq!((again.put, again.unchanged), (0, 2));
    assert_eq!(texts(&store), vec!["two", "one"]);
    let peers = store.sync_peers().unwrap();
    assert_eq!(peers[0].name.as_deref(), Some("laptop"));
    assert_eq!(peers[0].applied, 2);
    // Applying a peer's operations records none of this device's own (the first batch, empty,
    // only names the device).
    let own = store.sync_seal().unwrap();
    assert!(own.iter().all(|b| b.ops.is_empty()), "{own:?}");
}

#[test]
fn a_deleted_entry_stays_deleted_whatever_arrives_later_and_the_latest_edit_wins() {
    let store = Store::open_in_memory().unwrap();
    store.sync_enable("me").unwrap();
    // The deletion arrives before the entry itself.
    store.sync_apply("peer", 1, None, &[delete("e1", 5)]).unwrap();
    let late = [put("e1", "one", 1, "other"), put("e1", "one edited", 6, "other")];
    store.sync_apply("other", 1, None, &late).unwrap();
    assert!(texts(&store).is_empty());
    // An older edit after a newer one is ignored.
    let ops = [put("e2", "new", 4, "other"), put("e2", "older", 3, "other")];
    store.sync_apply("other", 2, None, &ops).unwrap();
    assert_eq!(texts(&store), vec!["new"]);
}

#[test]
fn entries_dropped_by_a_cap_and_removed_by_the_person_travel_as_deletions() {
    let store = Store::open_in_memory().unwrap();
    store.sync_enable("me").unwrap();
    let cap = AppendCap { max_items: Some(2), may_drop: true };
    for text in ["a", "b", "c"] {
        store
            .append_to_list_by(U, "coach", "journal", json!({"text": text}), cap, &ChangeBy::Cli)
            .unwrap();
    }
    let at = store.read_state(U, "coach", None).unwrap().data["journal"][0]["_created_at"]
        .as_str()
        .unwrap()
        .to_string();
    store.remove_list_entry_by(U, "coach", "journal", 0, &at, &ChangeBy::Cli).unwrap();
    let ops: Vec<SyncOp> =
        store.sync_seal().unwrap().remove(0).ops.into_iter().map(|o| o.op).collect();
    let kinds: Vec<&str> = ops
        .iter()
        .map(|o| match o {
            SyncOp::ListPut { .. } => "put",
            SyncOp::ListDelete { .. } => "delete",
            _ => "other",
        })
        .collect();
    assert_eq!(kinds, vec!["put", "put", "delete", "put", "delete"]);
}

#[test]
fn a_refused_write_records_no_operation() {
    let store = Store::open_in_memory().unwrap();
    store.sync_enable("me").unwrap();
    let cap = AppendCap { max_items: Some(1), may_drop: false };
    let by = ChangeBy::Cli;
    store.append_to_list_by(U, "coach", "journal", json!({"text": "a"}), cap, &by).unwrap();
    let refused = store.append_to_list_by(U, "coach", "journal", json!({"text": "b"}), cap, &by);
    assert!(refused.is_err());
    let batches = store.sync_seal().unwrap();
    assert_eq!(batches[0].ops.len(), 1, "only the append that was written: {batches:?}");
    assert_eq!(texts(&store), vec!["a"]);
}

/// SQLite reuses a deleted message's row id: the new message must travel under an id of its
/// own, not as an edit of the deleted one (three folders diverged on this under load).
#[test]
fn a_message_in_a_reused_row_travels_under_its_own_id() {
    use crate::{NewMessage, Role};
    let store = Store::open_in_memory().unwrap();
    store.sync_enable("me").unwrap();
    let first = store.create_conversation(U, None).unwrap().id;
    let old = store.append_message(&first, NewMessage::text(Role::User, "old words")).unwrap().id;
    store.delete_conversation(&first).unwrap();
    let second = store.create_conversation(U, None).unwrap().id;
    let new = store.append_message(&second, NewMessage::text(Role::User, "new words")).unwrap().id;
    assert_eq!(old, new, "the test needs SQLite to reuse the row id");
    let ops: Vec<SyncOp> =
        store.sync_seal().unwrap().into_iter().flat_map(|b| b.ops).map(|o| o.op).collect();
    let ids: Vec<(&str, &str)> = ops
        .iter()
        .filter_map(|op| match op {
            SyncOp::MessagePut { id, content, .. } => Some((id.as_str(), content.as_str())),
            _ => None,
        })
        .collect();
    assert_eq!(ids.len(), 2, "{ops:?}");
    assert_ne!(ids[0].0, ids[1].0, "the new message has an id of its own: {ids:?}");
}
