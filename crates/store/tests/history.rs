use serde_json::json;
use vibe_store::{HistoryLimit, NewMessage, Role, Store};

fn msg(role: Role, text: &str, tokens: u32) -> NewMessage {
    NewMessage { token_count: tokens, ..NewMessage::text(role, text) }
}

fn call(ids: &[&str], tokens: u32) -> NewMessage {
    let calls: Vec<_> = ids
        .iter()
        .map(|id| json!({"id": id, "type": "function", "function": {"name": "read_state", "arguments": "{}"}}))
        .collect();
    NewMessage {
        tool_calls: Some(json!(calls)),
        token_count: tokens,
        ..NewMessage::text(Role::Assistant, "")
    }
}

fn result(id: &str, tokens: u32) -> NewMessage {
    NewMessage {
        tool_call_id: Some(id.into()),
        token_count: tokens,
        ..NewMessage::text(Role::Tool, "{}")
    }
}

fn contents(store: &Store, conv: &str, limit: HistoryLimit) -> Vec<String> {
    store
        .history(conv, limit)
        .unwrap()
        .iter()
        .map(|m| match (m.role, &m.tool_call_id) {
            (Role::Tool, Some(id)) => format!("result:{id}"),
            (Role::Assistant, _) if m.tool_calls.is_some() => {
                format!("call:{}", m.tool_call_ids().join("+"))
            }
            _ => m.content.clone(),
        })
        .collect()
}

fn seeded() -> (Store, String) {
    let store = Store::open_in_memory().unwrap();
    let conv = store.create_conversation("local", None).unwrap().id;
    for m in [
        msg(Role::User, "u1", 10),
        msg(Role::Assistant, "a1", 10),
        msg(Role::User, "u2", 10),
        call(&["c1", "c2"], 5),
        result("c1", 100),
        result("c2", 100),
        msg(Role::Assistant, "a2", 10),
        msg(Role::User, "u3", 10),
    ] {
        store.append_message(&conv, m).unwrap();
    }
    (store, conv)
}

#[test]
fn last_n_never_splits_a_tool_call_from_its_results() {
    let (store, conv) = seeded();
    assert_eq!(contents(&store, &conv, HistoryLimit::Messages(2)), ["a2", "u3"]);
    // 4 would cut into the exchange: the whole exchange (3 messages) does not fit, so it stops.
    assert_eq!(contents(&store, &conv, HistoryLimit::Messages(4)), ["a2", "u3"]);
    assert_eq!(
        contents(&store, &conv, HistoryLimit::Messages(5)),
        ["call:c1+c2", "result:c1", "result:c2", "a2", "u3"]
    );
    assert_eq!(contents(&store, &conv, HistoryLimit::Messages(100)).len(), 8);
}

#[test]
fn the_current_user_message_is_never_dropped() {
    let (store, conv) = seeded();
    assert_eq!(contents(&store, &conv, HistoryLimit::Messages(0)), ["u3"]);
    assert_eq!(contents(&store, &conv, HistoryLimit::Tokens(1)), ["u3"]);
}

#[test]
fn token_budget_prefers_conversation_over_old_tool_output() {
    let (store, conv) = seeded();
    // 60 tokens: u3 + a2 + (exchange of 205 skipped) + u2 + a1 + u1.
    assert_eq!(contents(&store, &conv, HistoryLimit::Tokens(60)), ["u1", "a1", "u2", "a2", "u3"]);
    assert_eq!(contents(&store, &conv, HistoryLimit::Tokens(1000)).len(), 8);
}

#[test]
fn orphan_results_and_unanswered_calls_are_never_returned() {
    let store = Store::open_in_memory().unwrap();
    let conv = store.create_conversation("local", None).unwrap().id;
    for m in [
        result("ghost", 1),
        msg(Role::User, "u1", 1),
        call(&["c1", "c2"], 1),
        result("c1", 1),
        msg(Role::User, "u2", 1),
    ] {
        store.append_message(&conv, m).unwrap();
    }
    assert_eq!(contents(&store, &conv, HistoryLimit::Messages(10)), ["u1", "u2"]);
}

#[test]
fn history_reads_only_a_window_but_widens_it_when_everything_fits() {
    let store = Store::open_in_memory().unwrap();
    let conv = store.create_conversation("local", None).unwrap().id;
    for i in 0..300 {
        store
            .append_message(
                &conv,
                msg(if i % 2 == 0 { Role::User } else { Role::Assistant }, &format!("m{i}"), 1),
            )
            .unwrap();
    }
    let all = contents(&store, &conv, HistoryLimit::Tokens(10_000));
    assert_eq!(all.len(), 300);
    assert_eq!(all[0], "m0");
    let some = contents(&store, &conv, HistoryLimit::Messages(10));
    assert_eq!(some.first().map(String::as_str), Some("m290"));
}

#[test]
fn messages_need_a_conversation_and_valid_tool_fields() {
    let store = Store::open_in_memory().unwrap();
    assert!(
        store
            .append_message("nope", msg(Role::User, "x", 1))
            .unwrap_err()
            .to_string()
            .contains("no conversation")
    );
    let conv = store.create_conversation("local", None).unwrap().id;
    let err = store.append_message(&conv, NewMessage::text(Role::Tool, "{}")).unwrap_err();
    assert!(err.to_string().contains("tool_call_id"), "{err}");
    assert!(store.messages(&conv).unwrap().is_empty());
}

#[test]
fn deleting_a_conversation_deletes_its_messages() {
    let (store, conv) = seeded();
    store.set_conversation_skill(&conv, Some("bazi"), Some("basic_reading")).unwrap();
    assert_eq!(store.conversation(&conv).unwrap().skill.as_deref(), Some("bazi"));
    store.delete_conversation(&conv).unwrap();
    assert!(store.messages(&conv).is_err());
    assert_eq!(store.counts().unwrap().iter().find(|(t, _)| *t == "messages").unwrap().1, 0);
}

#[test]
fn the_last_user_message_is_the_newest_one_from_the_person() {
    let store = Store::open_in_memory().unwrap();
    let conv = store.create_conversation("local", None).unwrap().id;
    assert_eq!(store.last_user_message(&conv).unwrap(), None, "an empty conversation");
    store.append_message(&conv, msg(Role::User, "第一句", 3)).unwrap();
    store.append_message(&conv, msg(Role::Assistant, "回答", 2)).unwrap();
    let second = store.append_message(&conv, msg(Role::User, "第二句", 3)).unwrap();
    store.append_message(&conv, call(&["c1"], 5)).unwrap();
    store.append_message(&conv, result("c1", 1)).unwrap();
    store.append_message(&conv, msg(Role::Assistant, "又一个回答", 2)).unwrap();
    let last = store.last_user_message(&conv).unwrap().unwrap();
    assert_eq!((last.id, last.content.as_str()), (second.id, "第二句"));
    assert!(store.last_user_message("no-such-conversation").is_err());
}
