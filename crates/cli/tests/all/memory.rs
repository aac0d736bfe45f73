//! `vibe memory`: extract after a chat (scripted model), then list, show, edit, forget,
//! export and the switch, over a real data dir.

use std::path::Path;

use serde_json::Value;

use crate::support::{in_dir, ok_json_in, run};

const CHAT: &str = "mode: matched\nresponses:\n  - text: \"好的\"\n";
/// The person's first message in a fresh database has id 1.
const EXTRACT: &str = "mode: matched\nresponses:\n  - text: '{\"items\": [{\"kind\": \"facts\", \"text\": \"在杭州做设计师\", \"confidence\": 0.9, \"sources\": [1]}]}'\n";

fn script(dir: &Path, name: &str, text: &str) -> String {
    let path = dir.join(name);
    std::fs::write(&path, text).unwrap();
    format!("scripted:{}", path.display())
}

#[test]
fn extract_list_show_edit_forget_export_and_the_switch() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let chat = script(d, "chat.yaml", CHAT);
    let out = in_dir(d).args(["chat", "--base-url", &chat, "我在杭州做设计师"]).output().unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));

    let extract = script(d, "extract.yaml", EXTRACT);
    let done = ok_json_in(d, &["memory", "extract", "--base-url", &extract]);
    let pass = &done["passes"][0];
    assert_eq!(pass["status"], "applied", "{done}");
    assert_eq!(pass["added"].as_array().unwrap().len(), 1);
    let run_id = pass["run_id"].as_str().unwrap();
    assert!(d.join("runs").join(run_id).join("events.jsonl").is_file(), "a run folder of its own");
    let again = ok_json_in(d, &["memory", "extract", "--base-url", &extract]);
    assert_eq!(again["passes"], Value::Array(vec![]), "nothing is read twice");

    let list = ok_json_in(d, &["memory", "list"]);
    assert_eq!(list["memory"], true);
    let item = &list["items"][0];
    assert_eq!(item["text"], "在杭州做设计师");
    assert_eq!(item["sources"][0]["message_id"], 1);
    let id = item["id"].as_str().unwrap().to_string();
    let short = &id[..8];

    let text = String::from_utf8_lossy(&run(d, &["memory", "list"]).stdout).into_owned();
    assert!(
        text.contains(short) && text.contains("facts") && text.contains("在杭州做设计师"),
        "{text}"
    );
    let shown = String::from_utf8_lossy(&run(d, &["memory", "show", short]).stdout).into_owned();
    assert!(shown.contains("message 1"), "{shown}");

    let edited = ok_json_in(d, &["memory", "edit", short, "在上海做产品设计"]);
    assert_eq!(
        (edited["text"].as_str(), edited["edited"].as_bool()),
        (Some("在上海做产品设计"), Some(true))
    );
    assert_eq!(edited["history"][0]["text"], "在杭州做设计师");

    let export = ok_json_in(d, &["memory", "export"]);
    assert_eq!(export["items"][0]["text"], "在上海做产品设计");

    let forgotten = ok_json_in(d, &["memory", "forget", short]);
    assert_eq!(forgotten["forgotten"], id.as_str());
    assert_eq!(ok_json_in(d, &["memory", "list"])["items"], Value::Array(vec![]));
    let out = run(d, &["memory", "show", short]);
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("no memory item"));

    // Reading the same messages again does not bring it back.
    let reread = ok_json_in(d, &["memory", "extract", "--again", "--base-url", &extract]);
    assert_eq!(reread["passes"][0]["dropped_forgotten"], 1, "{reread}");
    assert_eq!(ok_json_in(d, &["memory", "list"])["items"], Value::Array(vec![]));

    assert_eq!(ok_json_in(d, &["memory", "off"])["memory"], false);
    let out = run(d, &["memory", "extract", "--again", "--base-url", &extract]);
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("memory is off"));
    assert_eq!(ok_json_in(d, &["memory", "on"])["memory"], true);
}

#[test]
fn bad_extraction_output_fails_and_changes_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let chat = script(d, "chat.yaml", CHAT);
    assert!(
        in_dir(d)
            .args(["chat", "--base-url", &chat, "我喜欢跑步"])
            .output()
            .unwrap()
            .status
            .success()
    );
    let bad = script(
        d,
        "bad.yaml",
        "mode: matched\nresponses:\n  - text: '{\"items\": [{\"kind\": \"facts\", \"text\": \"x\"}]}'\n",
    );
    let out = in_dir(d).args(["memory", "extract", "--base-url", &bad]).output().unwrap();
    assert!(!out.status.success());
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("changed nothing") && text.contains("no source messages"), "{text}");
    assert_eq!(ok_json_in(d, &["memory", "list"])["items"], Value::Array(vec![]));
}

#[test]
fn a_failed_pass_shows_its_wait_in_status_and_a_good_pass_clears_it() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let chat = script(d, "chat.yaml", CHAT);
    assert!(
        in_dir(d)
            .args(["chat", "--base-url", &chat, "我在杭州做设计师"])
            .output()
            .unwrap()
            .status
            .success()
    );
    let before = ok_json_in(d, &["memory", "status"]);
    assert_eq!(before["backlog"][0]["user_turns"], 1, "{before}");
    assert_eq!(before["backoff"], Value::Array(vec![]));

    let bad = script(d, "bad.yaml", "mode: matched\nresponses:\n  - text: 'not JSON at all'\n");
    let out = in_dir(d).args(["memory", "extract", "--base-url", &bad]).output().unwrap();
    assert!(!out.status.success());
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("1 failed in a row, next automatic try after"), "{text}");
    let status = ok_json_in(d, &["memory", "status"]);
    let wait = &status["backoff"][0];
    assert_eq!(wait["failures"], 1, "{status}");
    assert!(!wait["last_error"].as_str().unwrap().is_empty(), "{status}");
    assert!(wait["next_try_at"].as_str().unwrap() > wait["failed_at"].as_str().unwrap());
    let readable = String::from_utf8_lossy(&run(d, &["memory", "status"]).stdout).to_string();
    assert!(
        readable.contains("1 failed pass(es) in a row, next automatic try after"),
        "{readable}"
    );

    let extract = script(d, "extract.yaml", EXTRACT);
    ok_json_in(d, &["memory", "extract", "--base-url", &extract]);
    let after = ok_json_in(d, &["memory", "status"]);
    assert_eq!(after["backoff"], Value::Array(vec![]), "a good pass ends the wait: {after}");
    assert_eq!(after["backlog"], Value::Array(vec![]));
}
