//! The settings file's compatibility: what earlier versions wrote reads the same, the
//! effective settings a front end is shown keep their shape, and a malformed file is refused
//! naming the file and the key.

use std::path::Path;

use serde_json::{Value, json};

use super::*;

/// Every section with every key set (none to its default), as a person could have written it.
const FULL: &str = include_str!("testdata/settings-full.json");
/// The effective settings of an empty file (what `get_settings` shows on a fresh data folder).
const DEFAULTS: &str = include_str!("testdata/settings-defaults.json");

fn pretty(value: &Value) -> String {
    let mut text = serde_json::to_string_pretty(value).unwrap();
    text.push('\n');
    text
}

#[test]
fn an_existing_settings_file_reads_the_same_and_round_trips_byte_for_byte() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("settings.json");
    std::fs::write(&file, FULL).unwrap();
    let (settings, doc) = Settings::load(&file).unwrap();
    assert_eq!(settings.llm.model.as_deref(), Some("qwen3:8b"));
    assert_eq!(settings.chat.budgets.max_rounds, 6);
    assert_eq!(settings.chat.context.max_context_tokens, 32_000);
    assert_eq!(settings.preferences.language, Language::ZhCn);
    assert_eq!(serde_json::to_value(settings.preferences.theme).unwrap(), json!("dark"));
    assert_eq!(settings.preferences.reminders.quiet_hours.unwrap().end.to_string(), "07:30");
    assert_eq!(settings.tools.trusted_skills, ["tarot"]);
    assert_eq!(settings.models.catalog.as_deref(), Some("https://example.org/catalog.json"));
    assert_eq!(
        pretty(&serde_json::to_value(&settings).unwrap()),
        FULL,
        "every key written back as it was read"
    );
    assert_eq!(
        Settings::from_document(&serde_json::to_value(&settings).unwrap(), &file).unwrap(),
        settings
    );
    // The file as read is what a change is applied to: untouched keys stay as written.
    write_atomically(&file, &doc).unwrap();
    assert_eq!(std::fs::read_to_string(&file).unwrap(), FULL);
}

#[test]
fn the_effective_settings_of_an_empty_file_keep_their_shape() {
    let shown = serde_json::to_value(Settings::default()).unwrap();
    assert_eq!(pretty(&shown), DEFAULTS);
    let none = Path::new("settings.json");
    assert_eq!(Settings::from_document(&json!({}), none).unwrap(), Settings::default());
    assert_eq!(Settings::from_document(&Value::Null, none).unwrap(), Settings::default());
    let parsed: Value = serde_json::from_str(DEFAULTS).unwrap();
    assert_eq!(Settings::from_document(&parsed, none).unwrap(), Settings::default());
}

#[test]
fn a_malformed_settings_file_is_refused_naming_the_file_and_the_key() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("settings.json");
    let cases = [
        (json!({"chat": {"budgets": {"max_rounds": "ten"}}}), "chat", "invalid type"),
        (json!({"chat": {"budgets": {"max_roundz": 3}}}), "chat.budgets.max_roundz", "unknown"),
        (json!({"llm": {"modle": "x"}}), "llm.modle", "unknown"),
        (json!({"llm": {"local": {"thread": 2}}}), "llm.local.thread", "unknown"),
        (json!({"skills": {"extra": "x"}}), "skills.extra", "unknown"),
        (json!({"tols": {}}), "tols", "unknown key"),
        (json!({"preferences": {"language": "fr"}}), "preferences", "unknown variant"),
        (json!({"storage": {"encryption": "rot13"}}), "storage", "unknown variant"),
        (
            json!({"preferences": {"reminders": {"quiet_hours": {"start": "9:00", "end": "10:00"}}}}),
            "preferences",
            "\"9:00\" is not a time of day",
        ),
        (
            json!({"mcp": {"servers": {"web": {"type": "http", "url": "https://h.example/mcp"}}}}),
            "mcp.servers.web.type",
            "reached over streamable HTTP; remove \"type\"",
        ),
        (
            json!({"mcp": {"servers": {"old": {"type": "sse", "url": "https://h.example/sse"}}}}),
            "mcp.servers.old.type",
            "speaks only the older HTTP+SSE transport",
        ),
        (json!([1, 2]), "", "must hold a JSON object"),
    ];
    for (doc, key, says) in cases {
        std::fs::write(&file, doc.to_string()).unwrap();
        let err = Settings::load(&file).unwrap_err();
        let text = err.to_string();
        assert!(text.contains(&file.display().to_string()), "{doc}: {text}");
        assert!(text.contains(says), "{doc}: {text}");
        match err {
            AppError::Settings { file: named, key: named_key, .. } => {
                assert_eq!(named, file, "{doc}");
                assert_eq!(named_key.unwrap_or_default(), key, "{doc}: {text}");
            }
            other => panic!("{doc}: {other:?}"),
        }
    }
}
