//! Settings through the app facade: typed checks, whole-or-nothing writes of the real
//! settings file, and a file with an unknown key refused at open.

use serde_json::{Value, json};
use vibe_core::app::{App, AppPaths, Overrides};
use vibe_wire::command::{Hint, SettingChange, UpdateSettingsRequest};

use super::app::{open, set};

#[tokio::test]
async fn settings_are_checked_by_their_types_and_written_whole_or_not_at_all() {
    let dir = tempfile::tempdir().unwrap();
    let app = open(dir.path(), Overrides::default());
    let file = dir.path().join("settings.json");
    set(&app, &[("llm.model", json!("qwen3:8b")), ("preferences.language", json!("zh-CN"))]);
    let written: Value = serde_json::from_str(&std::fs::read_to_string(&file).unwrap()).unwrap();
    assert_eq!(
        written,
        json!({
            "storage": {"encryption": "keychain"},
            "llm": {"model": "qwen3:8b"},
            "preferences": {"language": "zh-CN"}
        })
    );
    let view = app.get_settings();
    let shown = serde_json::to_value(&view).unwrap();
    assert_eq!(shown["settings"]["llm"]["model"], "qwen3:8b");
    assert_eq!(view.settings.llm.model.as_deref(), Some("qwen3:8b"));
    assert_eq!(
        shown["settings"]["chat"]["budgets"]["max_rounds"],
        json!(app.settings().chat.budgets.max_rounds)
    );
    assert!(view.presets.iter().any(|p| p.id == "ollama"));

    for (key, value, named) in [
        ("llm.modle", json!("x"), "llm.modle"),
        ("llm.api_key", json!("sk-secret"), "llm.api_key"),
        ("chat.budgets.max_roundz", json!(3), "chat.budgets.max_roundz"),
        ("llm.retries", json!("many"), "llm"),
        ("preferences.language", json!("fr"), "preferences"),
        ("preferences.reminders.notfy", json!(false), "preferences.reminders.notfy"),
        (
            "preferences.reminders.quiet_hours",
            json!({"start": "22:00", "end": "7:00"}),
            "\"7:00\" is not a time of day",
        ),
        (
            "preferences.reminders.quiet_hours",
            json!({"start": "08:00", "end": "08:00"}),
            "preferences.reminders.quiet_hours",
        ),
        ("lmm.model", json!("x"), "lmm"),
        ("llm", json!("x"), "llm"),
    ] {
        let before = std::fs::read_to_string(&file).unwrap();
        let change = UpdateSettingsRequest {
            changes: vec![
                SettingChange { key: "llm.model".into(), value: json!("other") },
                SettingChange { key: key.into(), value },
            ],
        };
        let err = app.update_settings(change).unwrap_err();
        let text = err.to_string();
        assert!(text.contains("settings.json"), "{key}: {text}");
        assert!(text.contains(named), "{key}: {text}");
        assert!(!text.contains("sk-secret"), "{text}");
        assert_eq!(err.kind().as_str(), "settings", "{key}");
        assert_eq!(std::fs::read_to_string(&file).unwrap(), before, "{key}: nothing written");
        assert_eq!(app.settings().llm.model.as_deref(), Some("qwen3:8b"));
    }
    set(
        &app,
        &[
            ("preferences.reminders.notify", json!(false)),
            ("preferences.reminders.quiet_hours", json!({"start": "22:00", "end": "07:30"})),
        ],
    );
    let reminders = app.settings().preferences.reminders;
    assert!(!reminders.notify);
    assert_eq!(reminders.quiet_hours.unwrap().end.to_string(), "07:30");
    assert!(!app.get_settings().settings.preferences.reminders.notify);
    // `null` removes a key: its default applies again.
    set(
        &app,
        &[
            ("llm.model", Value::Null),
            ("preferences.language", Value::Null),
            ("preferences.reminders", Value::Null),
        ],
    );
    let left: Value = serde_json::from_str(&std::fs::read_to_string(&file).unwrap()).unwrap();
    assert_eq!(left, json!({"storage": {"encryption": "keychain"}}), "only the key mode is left");
    let leftovers: Vec<_> = std::fs::read_dir(dir.path())
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.contains("settings") && n != "settings.json")
        .collect();
    assert!(leftovers.is_empty(), "{leftovers:?}");
}

#[test]
fn a_settings_file_with_an_unknown_key_is_refused_at_open_with_the_file_and_key() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("settings.json"), r#"{"tools": {"timeout_secs": 3}}"#).unwrap();
    let err = App::open(AppPaths::new(dir.path()), Overrides::default()).err().unwrap();
    assert!(err.to_string().contains("tools.timeout_secs"), "{err}");
    match err.hint() {
        Some(Hint::Setting { key, file }) => {
            assert_eq!(key, "tools.timeout_secs");
            assert!(file.ends_with("settings.json"));
        }
        other => panic!("{other:?}"),
    }
    std::fs::write(dir.path().join("settings.json"), "{ not json").unwrap();
    let err = App::open(AppPaths::new(dir.path()), Overrides::default()).err().unwrap();
    assert!(matches!(err.hint(), Some(Hint::SettingsFile { .. })), "{err}");
    assert!(!dir.path().join("vibe.db").exists(), "nothing opened");
}
