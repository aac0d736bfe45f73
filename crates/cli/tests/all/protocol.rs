//! `vibe protocol` on a real data dir: list, start (pausing another), status, reminders,
//! cancel, later, export, with `--json`, and clear errors for bad input.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::path::Path;

use serde_json::Value;

use crate::support::{in_dir, ok_json_in, run};

#[test]
fn protocols_are_listed_started_paused_cancelled_and_exported() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    let list = ok_json_in(dir, &["protocol", "list"]);
    let ids: Vec<&str> =
        list["protocols"].as_array().unwrap().iter().map(|p| p["id"].as_str().unwrap()).collect();
    assert!(ids.contains(&"dankoe") && ids.contains(&"weekly_review"), "{ids:?}");

    let started = ok_json_in(dir, &["protocol", "start", "dankoe"]);
    let dankoe = started["run"]["id"].as_str().unwrap().to_string();
    assert_eq!(started["events"][0]["type"], "protocol_progress");
    assert_eq!(started["events"][0]["total_steps"], 6);

    let second = ok_json_in(dir, &["protocol", "start", "weekly_review"]);
    assert_eq!(second["events"][0]["type"], "protocol_paused");
    assert_eq!(second["events"][0]["protocol_run_id"], dankoe.as_str());

    let text = run(dir, &["protocol", "status"]);
    let text = String::from_utf8(text.stdout).unwrap();
    assert!(text.contains("lifecoach/dankoe v2  paused step 1/6"), "{text}");
    assert!(text.contains("[░░░░"), "a progress bar: {text}");

    let resumed = ok_json_in(dir, &["protocol", "resume", &dankoe]);
    assert_eq!(resumed["run"]["status"], "active");
    let reminders = ok_json_in(dir, &["protocol", "reminders"]);
    assert_eq!(reminders["reminders"].as_array().unwrap().len(), 0, "step 1 has none");

    let cancelled = ok_json_in(dir, &["protocol", "cancel", &dankoe, "--reason", "改天"]);
    assert_eq!(cancelled["events"][0]["type"], "protocol_cancelled");
    let state = ok_json_in(dir, &["state", "read", "--skill", "lifecoach"]);
    let mirror = &state["data"]["protocol"];
    assert_eq!(
        (mirror["id"].as_str(), mirror["status"].as_str()),
        (Some("dankoe"), Some("cancelled"))
    );
    assert_eq!(mirror["data"], serde_json::json!({}), "its (empty) data is kept in the mirror");

    let out = dir.join("report.md");
    ok_json_in(
        dir,
        &["protocol", "export", &dankoe, "--format", "md", "--out", out.to_str().unwrap()],
    );
    let md = std::fs::read_to_string(&out).unwrap();
    assert!(md.starts_with("# 我的人生地图") && md.contains("状态 cancelled"), "{md}");
    let pdf = dir.join("report.pdf");
    let wrote = ok_json_in(
        dir,
        &["protocol", "export", &dankoe, "--format", "pdf", "--out", pdf.to_str().unwrap()],
    );
    assert_eq!(wrote["out"], pdf.to_str().unwrap());
    assert!(std::fs::read(&pdf).unwrap().starts_with(b"%PDF-"));
    match std::process::Command::new("pdftotext").arg(&pdf).arg("-").output() {
        Ok(text) => {
            let text = String::from_utf8(text.stdout).unwrap();
            assert!(text.contains("我的人生地图") && text.contains("cancelled"), "{text}");
        }
        Err(_) => vibe_test_support::skip(
            &format!("vibe-cli {}", vibe_test_support::current_test("protocol")),
            "pdftotext (poppler-utils) is not installed; the PDF's text is not checked",
        ),
    }
    let json = run(dir, &["protocol", "export", &dankoe, "--format", "json"]);
    let json: Value = serde_json::from_slice(&json.stdout).unwrap();
    assert_eq!(json["schema_version"], 1);

    let later = ok_json_in(dir, &["protocol", "later", "dankoe"]);
    assert_eq!(later["status"], "later");
}

#[test]
fn bad_input_names_what_to_fix() {
    let tmp = tempfile::tempdir().unwrap();
    let out = run(tmp.path(), &["protocol", "start", "nope"]);
    assert!(!out.status.success());
    let err = String::from_utf8(out.stderr).unwrap();
    assert!(
        err.contains("no protocol named `nope`") && err.contains("vibe protocol list"),
        "{err}"
    );
    let out = run(tmp.path(), &["protocol", "export", "missing", "--format", "docx"]);
    let err = String::from_utf8(out.stderr).unwrap();
    assert!(err.contains("--format docx is not supported: use md, html, json or pdf"), "{err}");
    let out = run(tmp.path(), &["protocol", "export", "missing", "--format", "pdf"]);
    let err = String::from_utf8(out.stderr).unwrap();
    assert!(err.contains("--format pdf writes a file: add --out FILE"), "{err}");
    let out = run(tmp.path(), &["protocol", "resume", "missing"]);
    let err = String::from_utf8(out.stderr).unwrap();
    assert!(err.contains("no protocol run with id missing"), "{err}");
}

#[test]
fn the_shipped_protocol_eval_passes() {
    let tmp = tempfile::tempdir().unwrap();
    let scenario =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/evals/protocol_dankoe.yaml");
    let script = tmp.path().join("s.yaml");
    std::fs::write(&script, "responses:\n  - text: hi\n").unwrap();
    let out = in_dir(tmp.path())
        .args(["eval", scenario.to_str().unwrap()])
        .env("VIBE_LLM_BASE_URL", format!("scripted:{}", script.display()))
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{stdout}\n{}", String::from_utf8_lossy(&out.stderr));
    assert_eq!(stdout.matches("PASS").count(), 1, "{stdout}");
}
