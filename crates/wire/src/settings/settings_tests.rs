use serde_json::{Value, json};

use super::*;

#[test]
fn the_sections_are_the_documents_keys_in_order() {
    let Value::Object(doc) = serde_json::to_value(Settings::default()).unwrap() else {
        panic!("an object")
    };
    let keys: Vec<&str> = doc.keys().map(String::as_str).collect();
    assert_eq!(keys, Settings::SECTIONS);
}

#[test]
fn an_empty_document_is_the_defaults_and_a_partial_section_keeps_the_rest() {
    assert_eq!(serde_json::from_value::<Settings>(json!({})).unwrap(), Settings::default());
    let s: Settings = serde_json::from_value(json!({
        "llm": {"model": "m"},
        "chat": {"budgets": {"max_rounds": 3}, "context": {"history_mode": "token_budget"}},
        "preferences": {"reminders": {"quiet_hours": {"start": "22:00", "end": "07:00"}}}
    }))
    .unwrap();
    assert_eq!(s.llm.model.as_deref(), Some("m"));
    assert_eq!(s.llm.retries, 2);
    assert_eq!((s.chat.budgets.max_rounds, s.chat.budgets.max_tool_calls), (3, 24));
    assert_eq!(s.chat.context.history_mode, HistoryMode::TokenBudget);
    assert_eq!(s.chat.context.phase2_prompt_tokens, 6000);
    let quiet = s.preferences.reminders.quiet_hours.unwrap();
    assert!(quiet.contains(23 * 60 + 30) && quiet.contains(6 * 60 + 59) && !quiet.contains(7 * 60));
    assert!(s.preferences.reminders.notify);
}

#[test]
fn the_prompt_limit_follows_the_one_context_window_setting() {
    assert_eq!(Budgets::default().max_context_tokens, 14_000);
    let limits = ContextLimits { max_context_tokens: 32_000, ..ContextLimits::default() };
    assert_eq!(Budgets::default().for_context(&limits).max_context_tokens, 30_000);
    let typo = serde_json::from_str::<Budgets>(r#"{"max_round": 3}"#).unwrap_err();
    assert!(typo.to_string().contains("max_round"), "{typo}");
    let moved = serde_json::from_str::<Budgets>(r#"{"max_context_tokens": 3}"#);
    assert!(moved.is_err(), "the context window is set in chat.context only");
    let shown = serde_json::to_value(Budgets::default()).unwrap();
    assert!(shown.get("max_context_tokens").is_none(), "derived, never shown: {shown}");
}

#[test]
fn a_time_of_day_is_hh_mm_and_anything_else_is_refused_with_how_to_write_it() {
    let t: TimeOfDay = serde_json::from_value(json!("07:30")).unwrap();
    assert_eq!((t.minute(), t.to_string()), (450, "07:30".to_string()));
    for bad in ["7:30", "24:00", "12:60", "noon", "12:3a"] {
        let err = serde_json::from_value::<TimeOfDay>(json!(bad)).unwrap_err().to_string();
        assert!(err.contains("HH:MM"), "{bad}: {err}");
    }
}

#[test]
fn the_llm_sections_debug_form_never_shows_the_url() {
    let s = LlmSettings {
        base_url: Some("https://bob:pw-9911@h.example/v1?key=k-5150".into()),
        ..LlmSettings::default()
    };
    let shown = format!("{s:?} {:?}", Settings { llm: s.clone(), ..Settings::default() });
    assert!(!shown.contains("pw-9911") && !shown.contains("k-5150"), "{shown}");
}

#[test]
fn an_mcp_server_in_claude_desktops_shape_keeps_only_names_of_secrets() {
    let s: Settings = serde_json::from_value(json!({"mcp": {"servers": {
        "notes": {"command": "npx", "args": ["-y", "notes-server"], "env": ["NOTES_TOKEN"],
                  "sandbox": {"read": ["/home/a/Notes"]}},
        "web": {"url": "https://mcp.example/mcp", "headers": ["Authorization"], "enabled": false}
    }}}))
    .unwrap();
    let notes = &s.mcp.servers["notes"];
    assert!(notes.enabled && !notes.sandbox.network && !notes.sandbox.unconfined);
    assert_eq!(notes.env, ["NOTES_TOKEN"]);
    assert!(!s.mcp.servers["web"].enabled);
    let values = serde_json::from_value::<Settings>(json!({"mcp": {"servers": {
        "notes": {"command": "npx", "env": {"NOTES_TOKEN": "secret"}}
    }}}));
    assert!(values.is_err(), "a value in env is refused: it belongs in the keychain");
}
