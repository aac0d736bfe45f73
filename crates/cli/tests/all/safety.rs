//! `vibe safety check|eval` as a user runs them: an argument, stdin lines, `--json`, the
//! refused `--model`, and the labelled sets reproducing the documented figures.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use serde_json::Value;

use crate::support::{in_dir, vibe};

fn json_lines(stdout: &[u8]) -> Vec<Value> {
    String::from_utf8_lossy(stdout).lines().map(|l| serde_json::from_str(l).unwrap()).collect()
}

#[test]
fn check_an_argument_prints_risk_category_and_rule() {
    let out = vibe().args(["--json", "safety", "check", "我不想活了"]).output().unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let lines = json_lines(&out.stdout);
    assert_eq!(lines.len(), 1);
    assert_eq!(lines[0]["risk"], "acute");
    assert_eq!(lines[0]["category"], "suicide");
    assert_eq!(lines[0]["rule"], "zh.suicide.want_die");
}

#[test]
fn check_reads_one_message_per_stdin_line() {
    let out = vibe()
        .args(["--json", "safety", "check"])
        .write_stdin("笑死我了\nI want to kill myself\n\nkill the process\n")
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let risks: Vec<String> =
        json_lines(&out.stdout).iter().map(|v| v["risk"].as_str().unwrap().to_string()).collect();
    assert_eq!(risks, ["none", "acute", "none"]);
}

#[test]
fn check_text_mode_prints_one_readable_line() {
    let out = vibe().args(["safety", "check", "我胸口剧痛"]).output().unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.starts_with("acute   medical     zh.medical.emergency"), "{text}");
}

#[test]
fn model_is_asked_only_when_the_rules_are_unsure() {
    let dir = tempfile::tempdir().unwrap();
    let script = dir.path().join("classify.yaml");
    std::fs::write(
        &script,
        "mode: ordered\nresponses:\n  - text: '{\"risk\": \"acute\", \"category\": \"suicide\"}'\n",
    )
    .unwrap();
    let base = format!("scripted:{}", script.display());
    // Its own data dir: the model is set up by an app, which reads that dir's settings.
    let out = in_dir(dir.path())
        .args(["--json", "safety", "check", "--model", "--base-url", &base])
        .write_stdin("hello there\n撑不住了\n")
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let lines: Vec<Value> = String::from_utf8_lossy(&out.stdout)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(lines[0]["model_asked"], false, "a sure result needs no call");
    assert_eq!(lines[0]["risk"], "none");
    assert_eq!(lines[1]["model_asked"], true, "{}", lines[1]);
    assert_eq!(
        (lines[1]["risk"].as_str(), lines[1]["rule"].as_str()),
        (Some("acute"), Some("model"))
    );
}

#[test]
fn eval_reproduces_the_goals_on_both_sets() {
    for lang in ["zh", "en"] {
        let file = format!("{}/../../tests/safety/{lang}.tsv", env!("CARGO_MANIFEST_DIR"));
        let out = vibe().args(["--json", "safety", "eval", &file]).output().unwrap();
        assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
        let figures: Value = serde_json::from_slice(&out.stdout).unwrap();
        assert!(figures["recall_explicit_indirect"].as_f64().unwrap() >= 0.85, "{lang}");
        assert!(figures["false_alarm_lookalike"].as_f64().unwrap() <= 0.05, "{lang}");
    }
}

#[test]
fn eval_of_a_malformed_file_names_the_line() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("bad.tsv");
    std::fs::write(&file, "explicit\tacute\tsuicide\n").unwrap();
    let out = vibe().args(["safety", "eval", file.to_str().unwrap()]).output().unwrap();
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("bad.tsv:1: 3 tab-separated fields, need 4"), "{err}");
}
