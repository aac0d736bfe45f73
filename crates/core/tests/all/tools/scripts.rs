//! run_script and script-backed tools: approval always required, only files under the
//! active skill's scripts/, working dir the skill folder, environment cleared, timeout and
//! cancellation kill the process group, output capped.

use std::path::Path;
use std::time::Duration;

use serde_json::{Value, json};
use vibe_agent::tools::{ToolKind, ToolRegistry};
use vibe_sandbox::ScriptLimits;

use super::Fixture;

const SCRIPTS: &[(&str, &str)] = &[
    ("scripts/where.sh", "pwd\n"),
    ("scripts/env.sh", "env\n"),
    (
        "scripts/echo.py",
        "import sys\nprint('args=' + ','.join(sys.argv[1:]))\nprint('in=' + sys.stdin.read())\n",
    ),
    ("scripts/fail.sh", "echo oops >&2\nexit 3\n"),
    (
        "scripts/loud.sh",
        "i=0\nwhile [ $i -lt 2000 ]; do echo 0123456789012345678901234567890123456789; i=$((i+1)); done\n",
    ),
    ("scripts/hang.sh", "sleep \"$1\" &\nwait\n"),
    ("scripts/plain.txt", "not a script\n"),
    ("notes.md", "outside scripts/\n"),
];

fn fixture(limits: ScriptLimits) -> (Fixture, std::path::PathBuf) {
    let f = Fixture::with_tools(ToolRegistry::with_limits(limits));
    let dir = f.add_skill("scripted", "", SCRIPTS);
    (f, dir)
}

async fn run(f: &Fixture, args: Value) -> vibe_agent::tools::ToolOutput {
    f.call(Some("scripted"), "run_script", args).await
}

#[test]
fn run_script_always_needs_approval_naming_the_script() {
    let tool = ToolRegistry::with_builtins().get("run_script").unwrap();
    assert_eq!(tool.kind(), ToolKind::Script);
    let reason = tool.needs_approval(&json!({"script": "report.py"})).unwrap();
    assert!(reason.contains("scripts/report.py"), "{reason}");
    assert!(reason.contains("sandboxed") || reason.contains("refused"), "{reason}");
    assert!(tool.needs_approval(&json!({})).is_some());
}

#[tokio::test]
async fn runs_in_the_skill_folder() {
    let (f, dir) = fixture(ScriptLimits::default());
    let out = run(&f, json!({"script": "where.sh"})).await;
    assert_eq!(out.result["status"], "success", "{}", out.result);
    assert_eq!(out.result["exit_code"], 0);
    let pwd = out.result["stdout"].as_str().unwrap().trim().to_string();
    assert_eq!(Path::new(&pwd).canonicalize().unwrap(), dir.canonicalize().unwrap());
}

#[tokio::test]
async fn the_environment_is_cleared() {
    let (f, _dir) = fixture(ScriptLimits::default());
    let out = run(&f, json!({"script": "scripts/env.sh"})).await;
    let stdout = out.result["stdout"].as_str().unwrap();
    let vars: Vec<(&str, &str)> = stdout.lines().filter_map(|l| l.split_once('=')).collect();
    let allowed = [
        "PATH",
        "LANG",
        "HOME",
        "TMPDIR",
        "PYTHONDONTWRITEBYTECODE",
        "PWD",
        "SHLVL",
        "OLDPWD",
        "_",
    ];
    for (key, _) in &vars {
        assert!(allowed.contains(key), "{key} leaked into the script environment:\n{stdout}");
    }
    let get = |k: &str| vars.iter().find(|(key, _)| *key == k).map(|(_, v)| *v);
    assert_eq!(get("LANG"), Some("C.UTF-8"));
    assert_ne!(get("HOME"), std::env::var("HOME").ok().as_deref());
    assert!(get("HOME").unwrap().contains("vibe-script-"));
    assert!(!get("PATH").unwrap().contains(".cargo"));
}

#[tokio::test]
async fn arguments_and_stdin_reach_a_python_script() {
    let (f, _dir) = fixture(ScriptLimits::default());
    let out = run(&f, json!({"script": "echo.py", "args": ["--week", "3"], "stdin": "你好"})).await;
    assert_eq!(out.result["stdout"], "args=--week,3\nin=你好\n", "{}", out.result);
}

#[tokio::test]
async fn a_failing_script_is_an_error_observation_with_its_output() {
    let (f, _dir) = fixture(ScriptLimits::default());
    let out = run(&f, json!({"script": "fail.sh"})).await;
    assert!(out.is_error);
    assert_eq!(out.result["status"], "failed");
    assert_eq!(out.result["exit_code"], 3);
    assert_eq!(out.result["stderr"], "oops\n");
}

#[tokio::test]
async fn output_is_capped_with_a_marker() {
    let (f, _dir) = fixture(ScriptLimits { max_output_bytes: 1000, ..ScriptLimits::default() });
    let out = run(&f, json!({"script": "loud.sh"})).await;
    assert_eq!(out.result["truncated"], true);
    assert_eq!(out.result["exit_code"], 0);
    let stdout = out.result["stdout"].as_str().unwrap();
    let (kept, marker) = stdout.split_once("\n[truncated: ").unwrap();
    assert_eq!(kept.len(), 1000);
    assert!(marker.contains("81000 more bytes"), "{marker}");
}

/// Waits (bounded) until `pid` is gone or a zombie; false if it is still running.
fn process_ends(pid: u32) -> bool {
    for _ in 0..100 {
        match std::fs::read_to_string(format!("/proc/{pid}/stat")) {
            Err(_) => return true,
            Ok(stat)
                if stat.rsplit(')').next().is_some_and(|s| s.trim_start().starts_with('Z')) =>
            {
                return true;
            }
            Ok(_) => std::thread::sleep(Duration::from_millis(50)),
        }
    }
    false
}

/// A `sleep` argument no other process on the machine has: 300 seconds and a unique fraction.
pub(crate) fn marker() -> String {
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.subsec_nanos());
    format!("300.{}{nanos}", std::process::id())
}

/// The pid (as this process sees it) of a running `sleep <marker>`.
pub(crate) fn find_sleep(marker: &str) -> Option<u32> {
    let wanted = format!("sleep\0{marker}\0");
    std::fs::read_dir("/proc").ok()?.flatten().find_map(|e| {
        let pid: u32 = e.file_name().to_str()?.parse().ok()?;
        let cmdline = std::fs::read(e.path().join("cmdline")).ok()?;
        (cmdline.ends_with(wanted.as_bytes())).then_some(pid)
    })
}

#[cfg(target_os = "linux")]
#[tokio::test]
async fn a_timeout_kills_the_script_and_its_children() {
    let (f, _dir) =
        fixture(ScriptLimits { timeout: Duration::from_secs(1), ..ScriptLimits::default() });
    let marker = marker();
    let call = run(&f, json!({"script": "hang.sh", "args": [marker]}));
    let watch = async {
        for _ in 0..100 {
            if let Some(pid) = find_sleep(&marker) {
                return Some(pid);
            }
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
        None
    };
    let (out, child) = tokio::join!(call, watch);
    assert!(out.is_error);
    assert_eq!(out.result["status"], "timed_out");
    assert_eq!(out.result["timed_out"], true);
    assert_eq!(out.result["exit_code"], Value::Null);
    let child = child.expect("the script started its child");
    assert!(process_ends(child), "the script's background child {child} survived the timeout");
}

#[cfg(target_os = "linux")]
#[tokio::test]
async fn cancelling_the_call_kills_the_script() {
    let (f, _dir) = fixture(ScriptLimits::default());
    let marker = marker();
    let tool = f.tools.get("run_script").unwrap();
    let ctx = f.ctx(Some("scripted"));
    let mut call = tool.call(&ctx, json!({"script": "hang.sh", "args": [marker]}));
    let mut child = None;
    for _ in 0..200 {
        tokio::select! {
            out = &mut call => panic!("the script ended on its own: {}", out.result),
            () = tokio::time::sleep(Duration::from_millis(50)) => {}
        }
        child = find_sleep(&marker);
        if child.is_some() {
            break;
        }
    }
    let child = child.expect("the script started");
    drop(call);
    assert!(process_ends(child), "the script's child {child} survived cancellation");
}

#[tokio::test]
async fn paths_outside_scripts_are_refused() {
    let (f, dir) = fixture(ScriptLimits::default());
    #[cfg(unix)]
    std::os::unix::fs::symlink(dir.join("notes.md"), dir.join("scripts/link.sh")).unwrap();
    for (script, why) in [
        ("../notes.md", "without `..`"),
        ("/bin/sh", "without `..` or an absolute path"),
        ("notes.md", "no script `notes.md`"),
        ("link.sh", "outside the skill's scripts/"),
        ("missing.py", "available: echo.py"),
    ] {
        let out = run(&f, json!({"script": script})).await;
        assert!(out.is_error, "{script}");
        assert_eq!(out.result["field"], "script", "{script}");
        let msg = out.result["message"].as_str().unwrap();
        assert!(msg.contains(why), "{script}: {msg}");
    }
    let out = run(&f, json!({"script": "plain.txt"})).await;
    assert!(out.result["message"].as_str().unwrap().contains("chmod +x"), "{}", out.result);
    let out = f.call(None, "run_script", json!({"script": "where.sh"})).await;
    assert!(out.result["message"].as_str().unwrap().contains("call use_skill first"));
}

const TALLY_TOOLS: &str = r#"tools:
  - name: tally
    description: Count habits.
    parameters:
      type: object
      properties:
        habits: {type: array, items: {type: string}}
"#;

const TALLY: &str = "import json, sys\nargs = json.load(sys.stdin)\nprint(len(args['habits']))\n";

#[tokio::test]
async fn a_declared_script_tool_gets_its_arguments_as_json_on_stdin() {
    let f = Fixture::new();
    f.add_skill("habits", "", &[("tools.yaml", TALLY_TOOLS), ("scripts/tally.py", TALLY)]);
    let out = f.call_offered("habits", "tally", json!({"habits": ["run", "read", "sleep"]})).await;
    assert_eq!(out.result["status"], "success", "{}", out.result);
    assert_eq!(out.result["stdout"], "3\n");
    assert_eq!(out.result["script"], "scripts/tally.py");
}

#[tokio::test]
async fn a_declared_script_tool_refuses_arguments_off_its_schema() {
    let f = Fixture::new();
    f.add_skill("habits", "", &[("tools.yaml", TALLY_TOOLS), ("scripts/tally.py", TALLY)]);
    let out = f.call_offered("habits", "tally", json!({"habits": "run"})).await;
    assert!(out.is_error);
    assert_eq!(out.result["field"], "/habits");
    assert!(out.result.get("stdout").is_none(), "the script did not run: {}", out.result);
}
