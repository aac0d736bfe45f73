//! `vibe chat` as a person at a terminal uses it: the REPL reading one message per line from
//! the same stdin that answers approval prompts, and Ctrl-C (SIGINT) at each kind of prompt.
//! The model is scripted; its reply calls `run_script`, which always needs approval.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::io::{BufRead as _, BufReader, Read as _, Write as _};
use std::path::Path;
use std::process::{Child, ChildStdin, Stdio};
use std::sync::mpsc::{Receiver, RecvTimeoutError, channel};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use serde_json::Value;

use crate::support::{vibe_std, write_helper_skill};

/// Long enough for a loaded machine; reached only when `vibe` hangs (the bug guarded here).
const PATIENCE: Duration = Duration::from_secs(60);
/// The REPL's message prompt on stderr.
const PROMPT: &str = "› ";

const SCRIPT: &str = r#"
mode: matched
responses:
  - when: {user: "谢谢"}
    text: "不客气。"
  - when: {tool_result: "denied"}
    text: "好的，不运行脚本。"
  - when: {tool_result: "hello-from-script"}
    text: "脚本跑完了。"
  - tool_calls: [{name: run_script, arguments: {script: hi.sh}}]
"#;

/// A data dir with a skill whose only tool is `run_script` and a script that prints a word.
fn setup(dir: &Path) -> std::path::PathBuf {
    write_helper_skill(dir, "A test skill with a script.", "hi.sh", "echo hello-from-script\n");
    let script = dir.join("model.yaml");
    std::fs::write(&script, SCRIPT).unwrap();
    script
}

/// A running `vibe --json chat` with piped stdin; events and stderr are read by threads.
struct Session {
    child: Child,
    stdin: ChildStdin,
    events: Receiver<Value>,
    stderr: Arc<Mutex<String>>,
}

impl Session {
    fn start(dir: &Path, script: &Path, args: &[&str]) -> Self {
        let mut child = vibe_std()
            .arg("--data-dir")
            .arg(dir)
            .args(["--json", "chat", "--skill", "helper", "--approve", "ask"])
            .args(args)
            .env("VIBE_LLM_BASE_URL", format!("scripted:{}", script.display()))
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let stdout = child.stdout.take().unwrap();
        let (tx, events) = channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let line = line.unwrap();
                let event = serde_json::from_str(&line).unwrap_or_else(|e| panic!("{e}: {line}"));
                if tx.send(event).is_err() {
                    break;
                }
            }
        });
        let stderr = Arc::new(Mutex::new(String::new()));
        let mut pipe = child.stderr.take().unwrap();
        let sink = stderr.clone();
        std::thread::spawn(move || {
            let mut buf = [0u8; 1024];
            while let Ok(n) = pipe.read(&mut buf) {
                if n == 0 {
                    break;
                }
                sink.lock().unwrap().push_str(&String::from_utf8_lossy(&buf[..n]));
            }
        });
        let stdin = child.stdin.take().unwrap();
        Session { child, stdin, events, stderr }
    }

    fn say(&mut self, line: &str) {
        writeln!(self.stdin, "{line}").unwrap();
        self.stdin.flush().unwrap();
    }

    fn stderr(&self) -> String {
        self.stderr.lock().unwrap().clone()
    }

    /// Events up to and including the next one of type `kind`.
    fn until(&self, kind: &str) -> Vec<Value> {
        let deadline = Instant::now() + PATIENCE;
        let mut seen = Vec::new();
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.events.recv_timeout(left) {
                Ok(event) => {
                    let done = event["type"] == kind;
                    seen.push(event);
                    if done {
                        return seen;
                    }
                }
                Err(RecvTimeoutError::Timeout) => panic!(
                    "no `{kind}` event: vibe chat is stuck\nevents: {seen:?}\nstderr: {}",
                    self.stderr()
                ),
                Err(RecvTimeoutError::Disconnected) => panic!(
                    "vibe chat ended before a `{kind}` event\nevents: {seen:?}\nstderr: {}",
                    self.stderr()
                ),
            }
        }
    }

    /// Wait until the REPL has shown its message prompt `n` times.
    fn prompts(&self, n: usize) {
        let deadline = Instant::now() + PATIENCE;
        while self.stderr().matches(PROMPT).count() < n {
            assert!(Instant::now() < deadline, "no message prompt #{n}; stderr: {}", self.stderr());
            std::thread::sleep(Duration::from_millis(20));
        }
    }

    fn interrupt(&self) {
        let status = std::process::Command::new("kill")
            .args(["-INT", &self.child.id().to_string()])
            .status()
            .unwrap();
        assert!(status.success());
    }

    fn wait(mut self) -> std::process::ExitStatus {
        let deadline = Instant::now() + PATIENCE;
        loop {
            if let Some(status) = self.child.try_wait().unwrap() {
                return status;
            }
            if Instant::now() > deadline {
                self.child.kill().unwrap();
                panic!("vibe chat did not end; stderr: {}", self.stderr());
            }
            std::thread::sleep(Duration::from_millis(20));
        }
    }
}

fn text(events: &[Value]) -> String {
    events
        .iter()
        .filter(|e| e["type"] == "assistant_delta")
        .map(|e| e["text"].as_str().unwrap())
        .collect()
}

fn resolved(events: &[Value]) -> bool {
    let e = events.iter().find(|e| e["type"] == "approval_resolved").expect("an approval");
    assert_eq!(e["by"], "user");
    e["approved"].as_bool().unwrap()
}

#[cfg(unix)]
#[test]
fn the_repl_asks_approvals_on_its_own_stdin_and_ctrl_c_works_at_every_prompt() {
    let dir = tempfile::tempdir().unwrap();
    let script = setup(dir.path());
    let mut repl = Session::start(dir.path(), &script, &[]);

    // Turn 1: approve. The REPL reads messages from the stdin the approver answers on.
    repl.say("跑一下脚本");
    repl.until("approval_required");
    repl.say("y");
    let events = repl.until("run_finished");
    assert!(resolved(&events));
    let result = events.iter().find(|e| e["type"] == "tool_result").unwrap();
    assert!(result["result"].to_string().contains("hello-from-script"), "{result}");
    assert_eq!(text(&events), "脚本跑完了。");

    // Turn 2, same session: deny.
    repl.say("再跑一次");
    repl.until("approval_required");
    repl.say("n");
    let events = repl.until("run_finished");
    assert!(!resolved(&events));
    assert_eq!(text(&events), "好的，不运行脚本。");

    // Turn 3: Ctrl-C at the approval prompt cancels this turn, not the session.
    repl.say("第三次");
    repl.until("approval_required");
    repl.interrupt();
    let events = repl.until("run_finished");
    assert_eq!(events.last().unwrap()["stop_reason"], "cancelled");

    // Turn 4: the session goes on.
    repl.say("谢谢");
    let events = repl.until("run_finished");
    assert_eq!(text(&events), "不客气。");

    // Ctrl-C at the message prompt ends the session.
    repl.prompts(5);
    repl.interrupt();
    let status = repl.wait();
    assert!(status.success(), "{status:?}");
}

#[cfg(unix)]
#[test]
fn one_shot_chat_asks_its_approval_on_stdin() {
    let dir = tempfile::tempdir().unwrap();
    let script = setup(dir.path());
    let mut once = Session::start(dir.path(), &script, &["跑一下脚本"]);
    once.until("approval_required");
    once.say("yes");
    let events = once.until("run_finished");
    assert!(resolved(&events));
    assert_eq!(text(&events), "脚本跑完了。");
    assert!(once.stderr().contains("allow run_script"), "{}", once.stderr());
    assert!(once.wait().success());
}

/// Opens the connection, then calls its `echo`, then answers: one turn of the model.
const ECHO_SCRIPT: &str = r#"
mode: ordered
responses:
  - tool_calls: [{name: use_connection, arguments: {server: everything}}]
  - tool_calls: [{name: mcp__everything__echo, arguments: {message: hi-from-chat}}]
  - text: "回声收到了。"
"#;

/// A connection's tool asks `[y]es / [n]o / [a]lways`; "always" runs the call and writes the
/// tool to the server's `always_allow`, so the next turn (a new process) calls it unasked.
/// Against the reference "everything" server from npm (scripts/mcp-env.sh).
#[cfg(unix)]
#[test]
fn always_at_a_connection_s_approval_allows_that_tool_from_then_on() {
    let dir = tempfile::tempdir().unwrap();
    setup(dir.path());
    let script = dir.path().join("echo.yaml");
    std::fs::write(&script, ECHO_SCRIPT).unwrap();
    let server = vibe_test_support::everything_server().display().to_string();
    crate::support::ok_json_in(
        dir.path(),
        &["mcp", "add", "everything", "--", "node", &server, "stdio"],
    );

    let mut once = Session::start(dir.path(), &script, &["回声一下"]);
    let asked = once.until("approval_required");
    let question = asked.last().unwrap();
    assert_eq!(question["connection"]["server"], "everything", "{question}");
    once.say("a");
    let events = once.until("run_finished");
    assert!(resolved(&events));
    let result = echo_result(&events);
    assert!(result["result"].to_string().contains("hi-from-chat"), "{result}");
    assert_eq!(text(&events), "回声收到了。");
    let stderr = once.stderr();
    assert!(stderr.contains("[y]es / [n]o / [a]lways"), "{stderr}");
    assert!(stderr.contains("always allowed from now on"), "{stderr}");
    assert!(once.wait().success());
    let settings: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(dir.path().join("settings.json")).unwrap())
            .unwrap();
    assert_eq!(
        settings["mcp"]["servers"]["everything"]["always_allow"],
        serde_json::json!(["echo"])
    );

    // The next turn: no question, the call runs.
    let again = Session::start(dir.path(), &script, &["再回声一下"]);
    let events = again.until("run_finished");
    assert!(!events.iter().any(|e| e["type"] == "approval_required"), "{events:?}");
    let result = echo_result(&events);
    assert!(result["result"].to_string().contains("hi-from-chat"), "{result}");
    assert!(again.wait().success());
}

/// The result of the `echo` call (not of `use_connection`).
fn echo_result(events: &[Value]) -> &Value {
    events
        .iter()
        .find(|e| e["type"] == "tool_result" && e["name"] == "mcp__everything__echo")
        .expect("a result of mcp__everything__echo")
}
