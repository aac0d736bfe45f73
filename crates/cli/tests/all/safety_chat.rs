//! The wellbeing safety notice in `vibe chat` (text and `--json`) and `vibe runs replay`: a
//! risky message prints the crisis resources of the system locale before the coach's answer.

use std::path::Path;
use std::process::{Output, Stdio};

use serde_json::Value;

use crate::support::vibe_std;

const REPLY: &str = "mode: ordered\nresponses:\n  - text: \"我在这里陪着你。\"\n";

fn vibe(dir: &Path, args: &[&str]) -> Output {
    let script = dir.join("s.yaml");
    std::fs::write(&script, REPLY).unwrap();
    let mut cmd = vibe_std();
    cmd.arg("--data-dir").arg(dir).args(args);
    cmd.env("VIBE_LLM_BASE_URL", format!("scripted:{}", script.display()))
        .env("LANG", "zh_CN.UTF-8");
    cmd.stdin(Stdio::null()).output().unwrap()
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

#[test]
fn chat_prints_the_crisis_resources_and_replay_shows_them_again() {
    let dir = tempfile::tempdir().unwrap();
    let out = vibe(dir.path(), &["chat", "我想自杀"]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let err = text(&out.stderr);
    assert!(err.contains("⚠ safety notice (suicide, zh_CN.UTF-8)"), "{err}");
    assert!(err.contains("☎ 全国心理援助热线: 12356 (24小时)"), "{err}");
    assert!(err.contains("☎ 急救: 120"), "{err}");
    assert_eq!(text(&out.stdout).trim(), "我在这里陪着你。");

    let out = vibe(dir.path(), &["--json", "chat", "我想自杀"]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let events: Vec<Value> =
        text(&out.stdout).lines().map(|l| serde_json::from_str(l).unwrap()).collect();
    let notice = events.iter().find(|e| e["type"] == "safety_notice").unwrap();
    assert_eq!(
        (notice["risk"].as_str(), notice["category"].as_str()),
        (Some("acute"), Some("suicide"))
    );
    assert!(notice["resources"].as_array().unwrap().iter().any(|r| r["number"] == "12356"));
    let run_id = notice["run_id"].as_str().unwrap().to_string();

    let out = vibe(dir.path(), &["runs", "replay", &run_id]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert!(
        text(&out.stderr).contains("☎ 全国心理援助热线: 12356 (24小时)"),
        "{}",
        text(&out.stderr)
    );
}

#[test]
fn a_conversation_shown_again_flags_the_message_and_lists_the_contacts() {
    let dir = tempfile::tempdir().unwrap();
    assert!(vibe(dir.path(), &["chat", "我想自杀"]).status.success());
    let out = vibe(dir.path(), &["--json", "conversations", "list"]);
    let list: Value = serde_json::from_slice(&out.stdout).unwrap();
    let id = list["conversations"][0]["id"].as_str().unwrap().to_string();

    let out = vibe(dir.path(), &["conversations", "show", &id]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let shown = text(&out.stdout);
    assert!(shown.contains("you (⚠ acute: suicide): 我想自杀"), "{shown}");
    assert!(shown.contains("coach: 我在这里陪着你。"), "{shown}");
    assert!(shown.contains("⚠ safety notice (suicide, zh_CN.UTF-8)"), "{shown}");
    assert!(shown.contains("☎ 全国心理援助热线: 12356 (24小时)"), "{shown}");

    let out = vibe(dir.path(), &["--json", "conversations", "show", &id]);
    let detail: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(detail["messages"][0]["safety"]["category"], "suicide");
    assert!(detail["messages"][1].get("safety").is_none());
    assert_eq!(detail["crisis_resources"]["locale"], "zh_CN.UTF-8");

    // The export keeps the mark: in the conversation's JSON and its Markdown.
    let export = dir.path().join("export");
    let out = vibe(dir.path(), &["export", "all", "--out", export.to_str().unwrap()]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let md = std::fs::read_to_string(export.join(format!("conversations/{id}.md"))).unwrap();
    assert!(md.contains("## You (safety notice shown: acute, suicide) — "), "{md}");
    let json = std::fs::read_to_string(export.join(format!("conversations/{id}.json"))).unwrap();
    let exported: Value = serde_json::from_str(&json).unwrap();
    assert_eq!(exported["messages"][0]["safety"]["risk"], "acute");
}

/// A system without a locale (`LANG=C.UTF-8`, as a service or a bare session has) shows the
/// contacts of the language chosen in the app, not the generic ones; a system locale naming a
/// region (`LC_ALL` first, then `LANG`) still wins over it.
#[test]
fn without_a_system_locale_the_app_s_language_names_the_contacts() {
    let cases = [
        ("C.UTF-8", "", "zh-CN", "12356"),
        ("", "", "zh-CN", "12356"),
        ("en_US.UTF-8", "", "en_US.UTF-8", "988"),
        ("C.UTF-8", "en_GB.UTF-8", "en_GB.UTF-8", "116 123"),
    ];
    for (lang, lc_all, locale, number) in cases {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(
            dir.path().join("settings.json"),
            r#"{"preferences": {"language": "zh-CN"}}"#,
        )
        .unwrap();
        let script = dir.path().join("s.yaml");
        std::fs::write(&script, REPLY).unwrap();
        let mut cmd = vibe_std();
        cmd.arg("--data-dir").arg(dir.path()).args(["--json", "chat", "我想自杀"]);
        cmd.env("VIBE_LLM_BASE_URL", format!("scripted:{}", script.display()))
            .env("LANG", lang)
            .env("LC_ALL", lc_all);
        let out = cmd.stdin(Stdio::null()).output().unwrap();
        assert!(out.status.success(), "{}", text(&out.stderr));
        let events: Vec<Value> =
            text(&out.stdout).lines().map(|l| serde_json::from_str(l).unwrap()).collect();
        let notice = events.iter().find(|e| e["type"] == "safety_notice").unwrap();
        assert_eq!(notice["locale"], locale, "LANG={lang:?} LC_ALL={lc_all:?}");
        let numbers: Vec<&str> = notice["resources"]
            .as_array()
            .unwrap()
            .iter()
            .filter_map(|r| r["number"].as_str())
            .collect();
        assert!(numbers.contains(&number), "LANG={lang:?} LC_ALL={lc_all:?}: {numbers:?}");
    }
}

#[test]
fn a_safe_lookalike_prints_no_notice() {
    let dir = tempfile::tempdir().unwrap();
    let out = vibe(dir.path(), &["chat", "累死了"]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert!(!text(&out.stderr).contains("safety notice"), "{}", text(&out.stderr));
}

#[test]
fn an_unusable_model_check_is_said_and_the_rules_verdict_stands() {
    let dir = tempfile::tempdir().unwrap();
    // The rules are unsure about vague despair; the check answers no JSON, then the coach.
    let script = dir.path().join("check.yaml");
    std::fs::write(
        &script,
        "mode: ordered\nresponses:\n  - text: \"hmm\"\n  - text: \"我在这里陪着你。\"\n",
    )
    .unwrap();
    let mut cmd = vibe_std();
    cmd.arg("--data-dir").arg(dir.path()).args(["chat", "我真的撑不住了"]);
    cmd.env("VIBE_LLM_BASE_URL", format!("scripted:{}", script.display()))
        .env("LANG", "zh_CN.UTF-8");
    let out = cmd.stdin(Stdio::null()).output().unwrap();
    assert!(out.status.success(), "{}", text(&out.stderr));
    let err = text(&out.stderr);
    assert!(err.contains("notice: the safety model check was not used"), "{err}");
    assert!(err.contains("⚠ safety notice (suicide, zh_CN.UTF-8)"), "{err}");
    assert_eq!(text(&out.stdout).trim(), "我在这里陪着你。");
}
