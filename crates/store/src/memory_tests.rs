//! Tests of the memory store: provenance, merge by same words, replace with history, edit,
//! forget as a tombstone, the watermark and the backlog.

use vibe_wire::command::{MemoryKind, MemoryReplacedBy};

use crate::{LOCAL_USER as U, MemoryChange, NewMessage, Role, Store};

fn conversation_with(store: &Store, texts: &[&str]) -> (String, Vec<i64>) {
    let conv = store.create_conversation(U, None).unwrap();
    let ids = texts
        .iter()
        .map(|t| store.append_message(&conv.id, NewMessage::text(Role::User, *t)).unwrap().id)
        .collect();
    (conv.id, ids)
}

fn add(kind: &str, text: &str, sources: &[i64]) -> MemoryChange {
    MemoryChange::Add {
        kind: MemoryKind::from_name(kind).unwrap(),
        text: text.into(),
        confidence: 0.7,
        sources: sources.to_vec(),
    }
}

#[test]
fn an_added_item_keeps_its_sources_and_the_watermark_moves() {
    let store = Store::open_in_memory().unwrap();
    let (conv, ids) = conversation_with(&store, &["我在杭州做设计", "想每天早起写作"]);
    assert_eq!(store.memory_pending(&conv, false).unwrap().messages.len(), 2);
    let done = store
        .apply_memory(
            U,
            &conv,
            ids[1],
            &[add("facts", "在杭州做设计师", &[ids[0]]), add("goals", "每天早起写作", &[ids[1]])],
        )
        .unwrap();
    assert_eq!(done.added.len(), 2);
    let items = store.memory_items(U, Some(MemoryKind::Facts)).unwrap();
    assert_eq!(items.len(), 1);
    assert_eq!(items[0].sources[0].message_id, ids[0]);
    assert_eq!(items[0].sources[0].conversation_id, conv);
    let pending = store.memory_pending(&conv, false).unwrap();
    assert_eq!(pending.watermark, ids[1]);
    assert!(pending.messages.is_empty(), "nothing is read twice");
    assert!(store.memory_backlog(U).unwrap().is_empty());
    assert_eq!(store.memory_pending(&conv, true).unwrap().messages.len(), 2);
}

#[test]
fn same_words_merge_and_a_replacement_keeps_history() {
    let store = Store::open_in_memory().unwrap();
    let (conv, ids) = conversation_with(&store, &["a", "b", "c"]);
    store.apply_memory(U, &conv, ids[0], &[add("facts", "Lives in Paris.", &[ids[0]])]).unwrap();
    let id = store.memory_items(U, None).unwrap()[0].id.clone();
    let done =
        store.apply_memory(U, &conv, ids[1], &[add("facts", "lives in paris", &[ids[1]])]).unwrap();
    assert_eq!(done.merged, vec![id.clone()]);
    let replace = MemoryChange::Replace {
        id: id.clone(),
        text: "Lives in Berlin".into(),
        confidence: 0.9,
        sources: vec![ids[2]],
    };
    store.apply_memory(U, &conv, ids[2], &[replace]).unwrap();
    let item = store.memory_item(U, &id).unwrap();
    assert_eq!(item.text, "Lives in Berlin");
    assert_eq!(item.history.len(), 1);
    assert_eq!(item.history[0].text, "Lives in Paris.");
    assert_eq!(item.sources.len(), 3);
    assert_eq!(store.memory_items(U, None).unwrap().len(), 1);
}

#[test]
fn a_bad_change_changes_nothing_not_even_the_watermark() {
    let store = Store::open_in_memory().unwrap();
    let (conv, ids) = conversation_with(&store, &["a"]);
    let bad = [
        add("facts", "ok", &[ids[0]]),
        MemoryChange::Merge { id: "nope-nope".into(), confidence: 0.5, sources: vec![ids[0]] },
    ];
    let err = store.apply_memory(U, &conv, ids[0], &bad).unwrap_err();
    assert!(err.to_string().contains("no memory item"), "{err}");
    assert!(store.memory_items(U, None).unwrap().is_empty());
    assert_eq!(store.memory_pending(&conv, false).unwrap().watermark, 0);
    for bad in [add("facts", " ", &[ids[0]]), add("facts", "x", &[])] {
        assert!(store.apply_memory(U, &conv, ids[0], &[bad]).is_err());
    }
}

#[test]
fn an_edit_sticks_through_a_merge_and_forget_is_permanent() {
    let store = Store::open_in_memory().unwrap();
    let (conv, ids) = conversation_with(&store, &["a", "b"]);
    store.apply_memory(U, &conv, ids[0], &[add("goals", "run a marathon", &[ids[0]])]).unwrap();
    let id = store.memory_items(U, None).unwrap()[0].id.clone();
    let edited = store.edit_memory_item(U, &id[..8], "run a half marathon in spring").unwrap();
    assert!(edited.edited);
    assert_eq!(edited.history[0].by, MemoryReplacedBy::Edit);
    store
        .apply_memory(
            U,
            &conv,
            ids[1],
            &[MemoryChange::Merge { id: id.clone(), confidence: 0.9, sources: vec![ids[1]] }],
        )
        .unwrap();
    assert_eq!(store.memory_item(U, &id).unwrap().text, "run a half marathon in spring");
    assert!(store.edit_memory_item(U, &id, "  ").is_err());

    store.forget_memory_item(U, &id).unwrap();
    assert!(store.memory_items(U, None).unwrap().is_empty());
    assert!(store.memory_item(U, &id).is_err());
    assert_eq!(store.forgotten_memory_count(U).unwrap(), 1);
    let text: String = store
        .conn()
        .query_row("SELECT text || history FROM memory_items WHERE id = ?1", [&id], |r| r.get(0))
        .unwrap();
    assert_eq!(text, "[]", "the forgotten words are erased");
    // The same messages cannot bring it back, whatever the words.
    let again =
        store.apply_memory(U, &conv, ids[1], &[add("goals", "run a marathon", &[ids[0]])]).unwrap();
    assert_eq!(again.dropped_forgotten, 1);
    assert!(store.memory_items(U, None).unwrap().is_empty());
    // Another kind from the same message is still remembered.
    store.apply_memory(U, &conv, ids[1], &[add("facts", "likes running", &[ids[0]])]).unwrap();
    assert_eq!(store.memory_items(U, None).unwrap().len(), 1);
}

#[test]
fn safety_marks_and_roles_show_in_pending_and_the_backlog_counts_user_turns() {
    let store = Store::open_in_memory().unwrap();
    let (conv, ids) = conversation_with(&store, &["fine", "risky"]);
    store
        .mark_message_safety(
            ids[1],
            vibe_wire::SafetyRisk::Acute,
            vibe_wire::SafetyCategory::Suicide,
        )
        .unwrap();
    store.append_message(&conv, NewMessage::text(Role::Assistant, "answer")).unwrap();
    let pending = store.memory_pending(&conv, false).unwrap();
    assert_eq!(pending.messages.len(), 3);
    assert_eq!(pending.messages[1].safety, Some(vibe_wire::SafetyRisk::Acute));
    let backlog = store.memory_backlog(U).unwrap();
    assert_eq!(backlog.len(), 1);
    assert_eq!(backlog[0].user_turns, 2);
}

#[test]
fn the_backlog_counts_only_what_came_after_the_watermark() {
    let store = Store::open_in_memory().unwrap();
    let (conv, ids) = conversation_with(&store, &["one", "two", "three"]);
    let (other, _) = conversation_with(&store, &["elsewhere"]);
    store.apply_memory(U, &conv, ids[0], &[]).unwrap();
    let turns = |store: &Store| -> Vec<(String, u32)> {
        let mut rows: Vec<_> = store
            .memory_backlog(U)
            .unwrap()
            .into_iter()
            .map(|b| (b.conversation_id, b.user_turns))
            .collect();
        rows.sort();
        rows
    };
    let mut expected = vec![(conv.clone(), 2), (other.clone(), 1)];
    expected.sort();
    assert_eq!(turns(&store), expected);
    store.apply_memory(U, &conv, ids[2], &[]).unwrap();
    assert_eq!(turns(&store), [(other, 1)], "a conversation read to its end has no backlog");
}
