//! Output hygiene: text the person did not write — skill names and descriptions, conversation
//! titles, messages, memory items, saved state, run events — reaches the terminal from every
//! listing without escape sequences, bells or bidi overrides; `--json` keeps it exactly.

#![allow(clippy::unwrap_used)] // test helpers outside #[test] fns unwrap too

use std::path::Path;
use std::sync::Arc;

use serde_json::json;
use vibe_core::audit::RunAudit;
use vibe_core::emit::Emitter;
use vibe_store::{LOCAL_USER, MemoryChange, NewMessage, Role, Store};
use vibe_wire::{Event, Phase};

use crate::support::{BUILTIN, ok_json_in, run, write};

/// Clears the screen, sets the window title, rings the bell, and reverses what follows.
const EVIL: &str = "a\x1b[2J\x1b]0;pwned\x07b\u{9b}31m\u{202E}c";

/// Asserts the command succeeded and printed nothing a terminal would act on.
fn clean(dir: &Path, args: &[&str]) -> String {
    let (ok, stdout) = clean_either(dir, args);
    assert!(ok, "{args:?} failed");
    stdout
}

/// Asserts the command printed nothing a terminal would act on, whether it succeeded or not.
fn clean_either(dir: &Path, args: &[&str]) -> (bool, String) {
    let out = run(dir, args);
    let stdout = String::from_utf8(out.stdout).unwrap();
    let stderr = String::from_utf8(out.stderr).unwrap();
    if !out.status.success() {
        eprintln!("{args:?}: {stderr}");
    }
    for (stream, text) in [("stdout", &stdout), ("stderr", &stderr)] {
        let bad: Vec<char> = text
            .chars()
            .filter(|c| {
                (c.is_control() && *c != '\n' && *c != '\t')
                    || matches!(c, '\u{202A}'..='\u{202E}' | '\u{2066}'..='\u{2069}')
            })
            .collect();
        assert!(bad.is_empty(), "{args:?} {stream} carries {bad:?}: {text:?}");
    }
    (out.status.success(), stdout)
}

#[test]
fn skill_listings_print_names_and_descriptions_without_control_sequences() {
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path();
    let yaml_evil = EVIL.replace('\x1b', "\\e").replace('\x07', "\\a").replace('\u{9b}', "\\x9b");
    write(
        data,
        "skills/helper/SKILL.md",
        &format!("---\nname: helper\ndescription: \"{yaml_evil} helps\"\n---\nBody.\n"),
    );
    write(
        data,
        "skills/evil/SKILL.md",
        &format!("---\nname: \"ev{yaml_evil}il\"\ndescription: evil one\n---\nBody.\n"),
    );
    // A protocol of that skill titled with the same sequences.
    let shipped = std::fs::read_to_string(format!("{BUILTIN}/lifecoach/protocols/dankoe.yaml"))
        .unwrap()
        .replacen("id: dankoe", "id: evilreset", 1)
        .replacen("title: 一日人生重置", &format!("title: \"{yaml_evil} reset\""), 1);
    write(data, "skills/helper/protocols/evilreset.yaml", &shipped);
    let protocols = clean(data, &["protocol", "list"]);
    assert!(protocols.contains("a[2J]0;pwnedb31mc reset"), "{protocols}");
    let listed = clean(data, &["skills", "list"]);
    assert!(listed.contains("a[2J]0;pwnedb31mc helps"), "{listed}");
    let shown = clean(data, &["skills", "show", "helper"]);
    assert!(shown.contains("a[2J]0;pwnedb31mc helps"), "{shown}");
    // The misnamed skill is an error: reported, in words a terminal cannot act on.
    let (ok, report) = clean_either(data, &["skills", "check"]);
    assert!(!ok && report.contains("ev"), "{report}");
    // JSON keeps the exact text (escaped by JSON itself).
    let v = ok_json_in(data, &["skills", "list"]);
    let rows = v["skills"].as_array().unwrap();
    let helper = rows.iter().find(|r| r["name"] == "helper").unwrap();
    assert_eq!(helper["description"], format!("{EVIL} helps"));
}

/// A conversation titled [`EVIL`] with a message, a memory item and a run, all carrying it.
fn fabricate(data: &Path) -> (String, String) {
    let store = Store::open(&data.join("vibe.db")).unwrap();
    let conv = store.create_conversation(LOCAL_USER, Some(EVIL)).unwrap().id;
    let msg = store.append_message(&conv, NewMessage::text(Role::User, EVIL)).unwrap().id;
    let change = MemoryChange::Add {
        kind: vibe_wire::command::MemoryKind::Facts,
        text: format!("likes {EVIL}"),
        confidence: 0.9,
        sources: vec![msg],
    };
    store.apply_memory(LOCAL_USER, &conv, msg, &[change]).unwrap();
    let run_id = "run-evil";
    store.create_run(run_id, Some(&conv)).unwrap();
    let audit = Arc::new(RunAudit::create(data, run_id).unwrap());
    let emitter = Emitter::new(run_id, vec![audit.clone()]);
    for event in [
        Event::RunStarted {
            conversation_id: conv.clone(),
            phase: Phase::Phase1,
            skill: Some(EVIL.into()),
            user_message: EVIL.into(),
            model: EVIL.into(),
        },
        Event::AssistantDelta { text: EVIL.into() },
        Event::SkillActivated { skill: EVIL.into(), scenario: Some(EVIL.into()) },
    ] {
        emitter.emit(event);
    }
    (conv, run_id.to_string())
}

#[test]
fn conversation_run_memory_and_state_listings_print_no_control_sequences() {
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path();
    let (conv, run_id) = fabricate(data);
    let listed = clean(data, &["conversations", "list"]);
    assert!(listed.contains("a[2J]0;pwnedb31mc"), "{listed}");
    clean(data, &["conversations", "show", &conv]);
    clean(data, &["conversations", "search", "pwned"]);
    clean(data, &["runs", "list"]);
    clean(data, &["runs", "show", &run_id]);
    clean(data, &["runs", "replay", &run_id]);
    let memory = clean(data, &["memory", "list"]);
    assert!(memory.contains("likes a[2J]0;pwnedb31mc"), "{memory}");
    let items = ok_json_in(data, &["memory", "list"]);
    let id = items["items"][0]["id"].as_str().unwrap().to_string();
    clean(data, &["memory", "show", &id]);
    let data_arg = json!({ "note": EVIL }).to_string();
    clean(
        data,
        &["state", "write", "--skill", "lifecoach", "--section", "goals", "--data", &data_arg],
    );
    clean(data, &["state", "read", "--skill", "lifecoach"]);
    // A rename to such a title is printed clean too, and JSON keeps it.
    clean(data, &["conversations", "rename", &conv, EVIL]);
    let v = ok_json_in(data, &["conversations", "list"]);
    assert_eq!(v["conversations"][0]["title"], EVIL);
}
