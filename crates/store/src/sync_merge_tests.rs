//! The merge rules of every kind but list entries, at the store's level: two stores exchange
//! their sealed batches directly (no target, no encryption) in both orders.

use serde_json::{Value, json};
use vibe_wire::command::MemoryKind;

use crate::{
    ChangeBy, LOCAL_USER as U, MemoryChange, NewMessage, NewProtocolRun, ProtocolStatus, Role,
    Store,
};

fn device(id: &str) -> Store {
    let store = Store::open_in_memory().unwrap();
    store.sync_enable(id).unwrap();
    store
}

/// Apply every batch `from` (device `from_id`) sealed and not yet applied at `to`.
fn send(from: &Store, to: &Store) {
    let from_id = from.sync_device().unwrap().unwrap().device_id;
    for batch in from.sync_seal().unwrap() {
        let next = to.sync_peer_cursor(&from_id).unwrap();
        if batch.number >= next {
            to.sync_apply(&from_id, batch.number, None, &batch.ops).unwrap();
        }
    }
}

fn titles(store: &Store) -> Vec<(String, Option<String>)> {
    let mut all: Vec<_> =
        store.list_conversations(U).unwrap().into_iter().map(|c| (c.id, c.title)).collect();
    all.sort();
    all
}

#[test]
fn a_deleted_conversation_stays_deleted_with_its_messages_even_after_a_later_message() {
    let (a, b) = (device("a"), device("b"));
    let conv = a.create_conversation(U, Some("plans")).unwrap();
    a.append_message(&conv.id, NewMessage::text(Role::User, "hello")).unwrap();
    send(&a, &b);
    assert_eq!(b.messages(&conv.id).unwrap().len(), 1);
    assert_eq!(titles(&b), titles(&a));
    // Apart: a deletes it, b writes into it and renames it.
    a.delete_conversation(&conv.id).unwrap();
    b.append_message(&conv.id, NewMessage::text(Role::User, "still here?")).unwrap();
    b.set_conversation_title(&conv.id, Some("renamed")).unwrap();
    send(&b, &a);
    send(&a, &b);
    assert!(titles(&a).is_empty(), "{:?}", titles(&a));
    assert!(titles(&b).is_empty(), "{:?}", titles(&b));
}

#[test]
fn messages_and_their_rewrites_arrive_once_even_before_their_conversation() {
    let (a, b, c) = (device("a"), device("b"), device("c"));
    let conv = a.create_conversation(U, Some("talk")).unwrap();
    send(&a, &b);
    let draft = b
        .append_message(
            &conv.id,
            NewMessage { interrupted: true, ..NewMessage::text(Role::Assistant, "half") },
        )
        .unwrap();
    b.update_message(draft.id, "whole answer", None, 3, false).unwrap();
    // c reads b's batch before a's: the message makes the conversation, a's put names it.
    send(&b, &c);
    send(&a, &c);
    send(&b, &c);
    let got = c.messages(&conv.id).unwrap();
    assert_eq!(got.len(), 1, "{got:?}");
    assert_eq!((got[0].content.as_str(), got[0].interrupted), ("whole answer", false));
    assert_eq!(c.conversation(&conv.id).unwrap().title.as_deref(), Some("talk"));
}

#[test]
fn profile_fields_are_last_writer_wins_per_path_and_a_write_above_wins_over_older_ones_below() {
    let (a, b) = (device("a"), device("b"));
    a.set_path(U, "birth_info.date", json!("1990-01-01")).unwrap();
    a.set_path(U, "preferences.tone", json!({"style": "warm", "emoji": true})).unwrap();
    b.set_path(U, "birth_info.date", json!("1991-02-02")).unwrap(); // later: wins
    b.set_path(U, "preferences.tone.style", json!("direct")).unwrap(); // below a's, later
    send(&b, &a);
    send(&a, &b);
    for store in [&a, &b] {
        let profile = store.profile(U).unwrap();
        assert_eq!(profile["birth_info"]["date"], "1991-02-02");
        assert_eq!(profile["preferences"]["tone"], json!({"style": "direct", "emoji": true}));
    }
}

#[test]
fn write_state_values_are_last_writer_wins_per_key_and_replacing_a_list_deletes_its_entries() {
    let (a, b) = (device("a"), device("b"));
    a.append_to_list(U, "coach", "goals.items", json!({"text": "run"}), 100).unwrap();
    a.write_state(U, "coach", "goals", json!({"focus": "health"})).unwrap();
    send(&a, &b);
    b.write_state(U, "coach", "goals", json!({"focus": "work", "level": 2})).unwrap();
    a.write_state(U, "coach", "goals", json!({"items": ["replaced"]})).unwrap();
    send(&a, &b);
    send(&b, &a);
    let state = |s: &Store| {
        let mut data = s.read_state(U, "coach", None).unwrap().data;
        data.as_object_mut().unwrap().remove("_meta");
        data
    };
    assert_eq!(state(&a), state(&b));
    assert_eq!(state(&a)["goals"], json!({"focus": "work", "level": 2, "items": ["replaced"]}));
}

#[test]
fn an_undo_travels_as_the_values_it_put_back() {
    let (a, b) = (device("a"), device("b"));
    a.write_state(U, "coach", "goals", json!({"focus": "health"})).unwrap();
    a.write_state(U, "coach", "goals", json!({"focus": "work"})).unwrap();
    send(&a, &b);
    a.undo(U, &crate::HistoryTarget::Skill("coach".into()), None, &ChangeBy::Cli).unwrap();
    send(&a, &b);
    assert_eq!(b.read_state(U, "coach", None).unwrap().data["goals"]["focus"], "health");
}

fn remember(store: &Store, text: &str) -> String {
    let conv = store.create_conversation(U, None).unwrap();
    let msg = store.append_message(&conv.id, NewMessage::text(Role::User, text)).unwrap();
    let add = MemoryChange::Add {
        kind: MemoryKind::Facts,
        text: text.into(),
        confidence: 0.8,
        sources: vec![msg.id],
    };
    store.apply_memory(U, &conv.id, msg.id, &[add]).unwrap().added.remove(0)
}

#[test]
fn a_forget_wins_over_an_edit_made_later_elsewhere() {
    let (a, b) = (device("a"), device("b"));
    let id = remember(&a, "likes tea");
    send(&a, &b);
    assert_eq!(b.memory_item(U, &id).unwrap().text, "likes tea");
    a.forget_memory_item(U, &id).unwrap();
    b.edit_memory_item(U, &id, "likes green tea").unwrap(); // later, but after a forget
    send(&b, &a);
    send(&a, &b);
    for store in [&a, &b] {
        assert!(store.memory_items(U, None).unwrap().is_empty());
        assert_eq!(store.forgotten_memory_count(U).unwrap(), 1);
    }
}

#[test]
fn a_synced_conversation_is_not_read_again_by_memory_extraction_here() {
    let (a, b) = (device("a"), device("b"));
    let conv = a.create_conversation(U, None).unwrap();
    a.append_message(&conv.id, NewMessage::text(Role::User, "I moved to Lyon")).unwrap();
    send(&a, &b);
    assert!(b.memory_pending(&conv.id, false).unwrap().messages.is_empty());
}

fn start(store: &Store, id: &str, now: &str) {
    let new = NewProtocolRun {
        id,
        user: U,
        skill: "coach",
        protocol_id: "reset",
        protocol_version: 1,
        total_steps: 3,
        conversation_id: None,
        model: None,
        now,
    };
    store.start_protocol_run(&new).unwrap();
}

fn statuses(store: &Store) -> Vec<(String, ProtocolStatus)> {
    let mut runs: Vec<_> = store
        .protocol_runs(U, Some("coach"))
        .unwrap()
        .into_iter()
        .map(|r| (r.id, r.status))
        .collect();
    runs.sort_by(|x, y| x.0.cmp(&y.0));
    runs
}

#[test]
fn two_runs_started_apart_end_with_the_first_active_and_the_second_kept_paused() {
    let (a, b, c) = (device("a"), device("b"), device("c"));
    start(&a, "run-a", "2026-03-01T10:00:00Z");
    start(&b, "run-b", "2026-03-01T11:00:00Z");
    send(&b, &a);
    send(&a, &b);
    send(&b, &c);
    send(&a, &c);
    let want = vec![
        ("run-a".to_string(), ProtocolStatus::Active),
        ("run-b".to_string(), ProtocolStatus::Paused),
    ];
    for store in [&a, &b, &c] {
        assert_eq!(statuses(store), want);
        let mirror: Value = store.read_state(U, "coach", None).unwrap().data["protocol"].clone();
        assert_eq!(mirror["status"], "active");
        assert_eq!(mirror["started_at"], "2026-03-01T10:00:00Z");
    }
    // Resuming the paused one on b pauses the other, everywhere.
    b.resume_protocol_run("run-b").unwrap();
    send(&b, &a);
    send(&b, &c);
    let want = vec![
        ("run-a".to_string(), ProtocolStatus::Paused),
        ("run-b".to_string(), ProtocolStatus::Active),
    ];
    for store in [&a, &b, &c] {
        assert_eq!(statuses(store), want);
    }
}

#[test]
fn starting_a_run_after_a_peer_s_run_was_kept_paused_leaves_one_active_run_everywhere() {
    let (a, b) = (device("a"), device("b"));
    start(&b, "run-1", "2026-03-01T10:00:00Z");
    start(&a, "run-2", "2026-03-01T10:05:00Z");
    send(&a, &b); // b keeps run-1 active, run-2 paused
    start(&b, "run-3", "2026-03-01T10:09:00Z"); // the person's choice on b
    send(&b, &a);
    let want = vec![
        ("run-1".to_string(), ProtocolStatus::Paused),
        ("run-2".to_string(), ProtocolStatus::Paused),
        ("run-3".to_string(), ProtocolStatus::Active),
    ];
    assert_eq!(statuses(&b), want);
    assert_eq!(statuses(&a), want);
}

#[test]
fn a_safety_mark_travels_with_its_message_and_is_never_lowered_by_a_later_lower_or_markless_write()
{
    use vibe_wire::{SafetyCategory, SafetyRisk};
    let (a, b, c, d) = (device("a"), device("b"), device("c"), device("d"));
    let conv = a.create_conversation(U, None).unwrap();
    let msg = a.append_message(&conv.id, NewMessage::text(Role::User, "I can't go on")).unwrap();
    send(&a, &b);
    send(&a, &c);
    a.mark_message_safety(msg.id, SafetyRisk::Acute, SafetyCategory::Suicide).unwrap();
    send(&a, &b);
    send(&a, &d);
    let mark =
        crate::SafetyMark { risk: SafetyRisk::Acute, category: Some(SafetyCategory::Suicide) };
    assert_eq!(b.messages(&conv.id).unwrap()[0].safety, Some(mark));
    // A re-read of the conversation by memory on b sees the mark, so it skips the message.
    let pending = b.memory_pending(&conv.id, true).unwrap();
    assert_eq!(pending.messages[0].safety, Some(SafetyRisk::Acute));
    // c, apart, marks the same message lower, later: the higher mark stays on b.
    let on_c = c.messages(&conv.id).unwrap()[0].id;
    c.mark_message_safety(on_c, SafetyRisk::Concern, SafetyCategory::Abuse).unwrap();
    send(&c, &b);
    assert_eq!(b.messages(&conv.id).unwrap()[0].safety, Some(mark), "a lower mark does not win");
    // The same later write without any mark (a device from before marks travelled) leaves
    // the mark on d where it is.
    for batch in c.sync_seal().unwrap() {
        let markless: Vec<_> = batch
            .ops
            .into_iter()
            .map(|mut logged| {
                if let crate::SyncOp::MessagePut { safety, safety_category, .. } = &mut logged.op {
                    (*safety, *safety_category) = (None, None);
                }
                logged
            })
            .collect();
        d.sync_apply("c", batch.number, None, &markless).unwrap();
    }
    assert_eq!(d.messages(&conv.id).unwrap()[0].safety, Some(mark));
    assert_eq!(c.messages(&conv.id).unwrap()[0].content, d.messages(&conv.id).unwrap()[0].content);
}
