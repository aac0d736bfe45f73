//! Subscriptions: the structured-action scenario, both modes, wildcards,
//! containers, and events around errors.

use serde_json::json;
use vibe_jsonstream::{Error, Event, Mode, Parser, Payload, SubscriptionId};

use crate::support::run_chunks;

fn ev(id: SubscriptionId, path: &str, payload: Payload) -> (SubscriptionId, String, Payload) {
    (id, path.to_owned(), payload)
}

fn flat(events: Vec<Event>) -> Vec<(SubscriptionId, String, Payload)> {
    events.into_iter().map(|e| (e.subscription, e.path.to_string(), e.payload)).collect()
}

#[test]
fn structured_action_streams_type_answer_and_step_titles() {
    let mut b = Parser::builder();
    let kind = b.subscribe("$.action.type", Mode::Realtime).unwrap();
    let answer = b.subscribe("$.final_answer.content", Mode::Delta).unwrap();
    let titles = b.subscribe("$.plan_update.steps[*].title", Mode::Realtime).unwrap();
    let chunks: [&[u8]; 6] = [
        br#"{"plan_update": {"steps": [{"title": "Look"#,
        br#" back", "status": "done"}, {"title": "Plan", "status": "doing"}]},"#,
        br#" "action": {"type": "final_"#,
        br#"answer"}, "final_answer": {"content": "Good "#,
        "morning \u{2600}".as_bytes(),
        br#"!\n"}}"#,
    ];
    let (events, value) = run_chunks(b.build(), &chunks);
    assert_eq!(
        flat(events),
        vec![
            ev(titles, "$.plan_update.steps[0].title", Payload::Partial("Look".into())),
            ev(titles, "$.plan_update.steps[0].title", Payload::Value(json!("Look back"))),
            ev(titles, "$.plan_update.steps[1].title", Payload::Value(json!("Plan"))),
            ev(kind, "$.action.type", Payload::Partial("final_".into())),
            ev(kind, "$.action.type", Payload::Value(json!("final_answer"))),
            ev(answer, "$.final_answer.content", Payload::Delta("Good ".into())),
            ev(answer, "$.final_answer.content", Payload::Delta("morning \u{2600}".into())),
            ev(answer, "$.final_answer.content", Payload::Delta("!\n".into())),
            ev(answer, "$.final_answer.content", Payload::End),
        ]
    );
    assert_eq!(value.unwrap()["final_answer"]["content"], "Good morning \u{2600}!\n");
}

#[test]
fn deltas_never_split_a_character_or_an_escape() {
    let mut b = Parser::builder();
    let id = b.subscribe("$.t", Mode::Delta).unwrap();
    let text = "{\"t\": \"é😀\\u00e9\\uD83D\\uDE00a\"}".as_bytes();
    let chunks: Vec<&[u8]> = text.chunks(1).collect();
    let (events, value) = run_chunks(b.build(), &chunks);
    let deltas: Vec<String> = events
        .iter()
        .filter_map(|e| match &e.payload {
            Payload::Delta(d) => Some(d.clone()),
            _ => None,
        })
        .collect();
    assert_eq!(deltas, ["é", "😀", "é", "😀", "a"]);
    assert_eq!(events.last().map(|e| (e.subscription, &e.payload)), Some((id, &Payload::End)));
    assert_eq!(value.unwrap(), json!({"t": "é😀é😀a"}));
}

#[test]
fn an_empty_string_gives_only_the_end_marker_or_the_value() {
    let mut b = Parser::builder();
    let delta = b.subscribe("$.s", Mode::Delta).unwrap();
    let real = b.subscribe("$.s", Mode::Realtime).unwrap();
    let (events, _) = run_chunks(b.build(), &[b"{\"s\": \"", b"\"}"]);
    assert_eq!(
        flat(events),
        vec![ev(delta, "$.s", Payload::End), ev(real, "$.s", Payload::Value(json!("")))]
    );
}

#[test]
fn non_string_values_arrive_complete_in_both_modes_even_when_not_retained() {
    let mut b = Parser::builder().retain_value(false);
    let action = b.subscribe("$.action", Mode::Delta).unwrap();
    let args = b.subscribe("$.action.args.*", Mode::Realtime).unwrap();
    let first = b.subscribe("$.list[0]", Mode::Realtime).unwrap();
    let doc = br#"{"list": [1.5e3, 2], "action": {"type": "search", "args": {"q": ["a", {"b": null}], "n": 3, "ok": true}}}"#;
    let (events, value) = run_chunks(b.build(), &doc.chunks(7).collect::<Vec<_>>());
    assert_eq!(value, Err(Error::ValueNotRetained));
    assert_eq!(
        flat(events),
        vec![
            ev(first, "$.list[0]", Payload::Value(json!(1500.0))),
            ev(args, "$.action.args.q", Payload::Value(json!(["a", {"b": null}]))),
            ev(args, "$.action.args.n", Payload::Value(json!(3))),
            ev(args, "$.action.args.ok", Payload::Value(json!(true))),
            ev(
                action,
                "$.action",
                Payload::Value(
                    json!({"type": "search", "args": {"q": ["a", {"b": null}], "n": 3, "ok": true}})
                )
            ),
        ]
    );
}

#[test]
fn wildcards_indices_and_quoted_keys_select_the_right_values() {
    let mut b = Parser::builder();
    let any = b.subscribe("$[*].*", Mode::Realtime).unwrap();
    let second = b.subscribe("$[1]['odd key']", Mode::Realtime).unwrap();
    let root = b.subscribe("$", Mode::Realtime).unwrap();
    let doc = br#"[{"a": 1}, {"odd key": "x", "b": [true]}, 5]"#;
    let (events, _) = run_chunks(b.build(), &[doc]);
    assert_eq!(
        flat(events),
        vec![
            ev(any, "$[0].a", Payload::Value(json!(1))),
            ev(any, "$[1]['odd key']", Payload::Value(json!("x"))),
            ev(second, "$[1]['odd key']", Payload::Value(json!("x"))),
            ev(any, "$[1].b", Payload::Value(json!([true]))),
            ev(root, "$", Payload::Value(json!([{"a": 1}, {"odd key": "x", "b": [true]}, 5]))),
        ]
    );
}

#[test]
fn realtime_partials_grow_once_per_feed() {
    let mut b = Parser::builder();
    let id = b.subscribe("$.content", Mode::Realtime).unwrap();
    let (events, _) =
        run_chunks(b.build(), &[b"{\"content\": \"Hel", b"", b"lo\\", b"n", b" you\"}"]);
    assert_eq!(
        flat(events),
        vec![
            ev(id, "$.content", Payload::Partial("Hel".into())),
            ev(id, "$.content", Payload::Partial("Hello".into())),
            ev(id, "$.content", Payload::Partial("Hello\n".into())),
            ev(id, "$.content", Payload::Value(json!("Hello\n you"))),
        ]
    );
}

#[test]
fn events_before_an_error_can_still_be_drained() {
    let mut b = Parser::builder();
    let kind = b.subscribe("$.action.type", Mode::Realtime).unwrap();
    let mut p = b.build();
    let err = p.feed(br#"{"action": {"type": "search",, }"#).unwrap_err();
    assert!(matches!(err, Error::Syntax { .. }));
    let events: Vec<Event> = p.drain_events().collect();
    assert_eq!(flat(events), vec![ev(kind, "$.action.type", Payload::Value(json!("search")))]);
}

#[test]
fn bad_patterns_are_rejected_with_a_reason() {
    let mut b = Parser::builder();
    let err = b.subscribe("$.action..type", Mode::Delta).unwrap_err();
    assert_eq!(
        err.to_string(),
        "invalid path pattern `$.action..type` at character 9: expected a name or `*` after `.`; write keys with other characters as ['key']"
    );
    assert!(b.subscribe("action.type", Mode::Delta).is_err());
}

#[test]
fn values_outside_subscriptions_cost_no_events() {
    let mut b = Parser::builder();
    b.subscribe("$.a.b", Mode::Delta).unwrap();
    let (events, value) =
        run_chunks(b.build(), &[br#"{"b": {"a": "x"}, "a": [{"b": 1}], "c": {"a": {"b": 2}}}"#]);
    assert!(events.is_empty(), "{events:?}");
    assert!(value.is_ok());
}
