//! Where scripts cannot be sandboxed (forced here with `ToolRegistry::without_sandbox`, so it
//! runs on any computer): an untrusted skill's script is refused before it starts, with an
//! observation saying why and how to trust the skill; a trusted skill's script runs
//! unconfined and its approval says so. Also: a process an unconfined script leaves behind
//! holding its output open does not make the output vanish; the observation says so.

#![cfg(unix)]

use serde_json::json;
use vibe_agent::tools::{ToolRegistry, ToolsSettings};

use super::Fixture;
use super::scripts::{find_sleep, marker};

const WHY: &str = "sandbox switched off for this test";

const SCRIPTS: &[(&str, &str)] = &[
    ("tools.yaml", "tools:\n  - run_script\n"),
    ("scripts/touch.sh", "echo ran > \"$1\"\necho ran\n"),
    // The child says when it has left the process group, so the script cannot end first.
    (
        "scripts/linger.sh",
        "echo before\n\
         setsid sh -c 'touch \"$TMPDIR/ready\"; exec sleep \"$1\"' linger \"$1\" &\n\
         while [ ! -e \"$TMPDIR/ready\" ]; do sleep 0.05; done\n\
         echo after\n",
    ),
];

fn fixture() -> Fixture {
    let settings =
        ToolsSettings { trusted_skills: vec!["trusted".to_string()], ..ToolsSettings::default() };
    let f = Fixture::with_tools(ToolRegistry::from_settings(&settings).without_sandbox(WHY));
    f.add_skill("untrusted", "", SCRIPTS);
    f.add_skill("trusted", "", SCRIPTS);
    f
}

fn approval(f: &Fixture, skill: &str) -> String {
    let set = f.tools.tools_for(&f.skills, Some(skill));
    set.get("run_script").unwrap().needs_approval(&json!({"script": "touch.sh"})).unwrap()
}

#[tokio::test]
async fn an_untrusted_skills_script_is_refused_with_a_clear_observation() {
    let f = fixture();
    let reason = approval(&f, "untrusted");
    assert!(reason.contains("it will be refused") && reason.contains(WHY), "{reason}");
    assert!(reason.contains("tools.trusted_skills"), "{reason}");

    let target = f.dir.path().join("ran.txt");
    let args = json!({"script": "touch.sh", "args": [target.to_str().unwrap()]});
    let offered = f.call_offered("untrusted", "run_script", args.clone()).await;
    let builtin = f.call(Some("untrusted"), "run_script", args).await;
    for out in [offered, builtin] {
        assert!(out.is_error, "{}", out.result);
        let message = out.result["message"].as_str().unwrap_or_default();
        assert!(message.starts_with("refused to run"), "{message}");
        assert!(message.contains("cannot sandbox scripts") && message.contains(WHY), "{message}");
        assert!(message.contains("tools.trusted_skills"), "no way out in: {message}");
    }
    assert!(!target.exists(), "a refused script ran");
}

#[tokio::test]
async fn a_trusted_skills_script_runs_unconfined_and_its_approval_says_so() {
    let f = fixture();
    let reason = approval(&f, "trusted");
    assert!(reason.contains("UNCONFINED") && reason.contains(WHY), "{reason}");
    assert!(reason.contains("runs with all your rights"), "{reason}");
    assert!(!reason.contains("sandboxed:"), "{reason}");

    // Unconfined indeed: it writes outside its folder, which a sandboxed run cannot.
    let target = f.dir.path().join("ran.txt");
    let out = f
        .call_offered(
            "trusted",
            "run_script",
            json!({"script": "touch.sh", "args": [target.to_str().unwrap()]}),
        )
        .await;
    assert_eq!(out.result["status"], "success", "{}", out.result);
    assert_eq!(out.result["stdout"], "ran\n");
    assert_eq!(std::fs::read_to_string(&target).unwrap(), "ran\n");
}

#[cfg(target_os = "linux")]
#[tokio::test]
async fn a_process_left_holding_the_output_open_cannot_make_it_vanish() {
    let f = fixture();
    let marker = marker();
    // Unconfined, a `setsid` child leaves the run's process group and keeps stdout open.
    let out = f
        .call_offered("trusted", "run_script", json!({"script": "linger.sh", "args": [marker]}))
        .await;
    let leftover = find_sleep(&marker);
    if let Some(pid) = leftover {
        // The test's own leftover `sleep`.
        let _ = std::process::Command::new("kill").arg(pid.to_string()).status();
    }
    assert!(leftover.is_some(), "the setsid child was expected to outlive the unconfined run");
    assert_eq!(out.result["status"], "success", "{}", out.result);
    let stdout = out.result["stdout"].as_str().unwrap();
    assert!(stdout.starts_with("before\nafter\n"), "the output vanished: {stdout}");
    assert!(stdout.contains("[output still open"), "no marker: {stdout}");
    assert!(stdout.contains("anything written later is not shown"), "{stdout}");
    assert_eq!(out.result["truncated"], true, "{}", out.result);
}
