//! Starting one long-lived program with piped standard streams (an MCP server): confined the
//! way a script run is (`confine`), or unconfined when the policy says so, its environment
//! cleared but for what the caller gives, its working and temporary folder a fresh one, the
//! whole process group (and on Linux the whole namespace) killed when the returned
//! [`ServerProcess`] is dropped. Speaking to it, timeouts and reading its output are the
//! caller's (`vibe-mcp`); choosing what it may touch is the person's (settings).

use std::path::PathBuf;
use std::process::Stdio;

use tokio::process::{Child, Command};

use super::confine::{self, Guard, Mode};
use super::limits::ScriptLimits;
use super::policy::{Places, Policy};
use super::process::GroupGuard;

/// `PATH` inside a server unless the caller gives one.
const SAFE_PATH: &str = "/usr/local/bin:/opt/homebrew/bin:/usr/bin:/bin";

/// What to start.
#[derive(Debug, Clone, Default)]
pub struct ServerInvocation {
    /// Absolute path of the program.
    pub program: PathBuf,
    pub args: Vec<String>,
    /// The environment beyond `LANG`, `HOME` and `TMPDIR` (a `PATH` given here replaces the
    /// default one).
    pub env: Vec<(String, String)>,
    /// Folders (or files) it may read besides the system's programs and libraries.
    pub read: Vec<PathBuf>,
    /// Folders it may write (and read).
    pub write: Vec<PathBuf>,
}

/// A started server. Dropping it kills the program and everything it started.
pub struct ServerProcess {
    /// The program's process: its stdin, stdout and stderr are piped (take them).
    pub child: Child,
    group: GroupGuard,
    _guard: Guard,
    _home: tempfile::TempDir,
}

impl ServerProcess {
    /// Kills the program and everything it started now.
    pub fn kill(&mut self) {
        self.group.kill();
        let _ = self.child.start_kill();
    }
}

/// Starts `inv` under `limits` (its timeout is only the CPU-seconds limit here) and `policy`.
/// `Err` says why it could not start (or was refused because it cannot be sandboxed).
pub fn spawn_server(
    inv: ServerInvocation,
    limits: &ScriptLimits,
    policy: &Policy,
) -> Result<ServerProcess, String> {
    let mode = policy.mode();
    if let Mode::Refused(why) = &mode {
        return Err(format!(
            "refused to start {}: this computer cannot sandbox programs ({why}); allow it to \
             run unconfined to start it with all your rights",
            inv.program.display()
        ));
    }
    let home = tempfile::Builder::new()
        .prefix("vibe-server-")
        .tempdir()
        .map_err(|e| format!("cannot create a temporary HOME for the server: {e}"))?;
    let mut cmd = Command::new(&inv.program);
    cmd.args(&inv.args)
        .current_dir(home.path())
        .env_clear()
        .env("PATH", SAFE_PATH)
        .env("LANG", "C.UTF-8")
        .env("HOME", home.path())
        .env("TMPDIR", home.path());
    for (k, v) in &inv.env {
        cmd.env(k, v);
    }
    let (mut cmd, guard) = match mode {
        Mode::Confined => {
            let places = Places {
                skill_dir: home.path(),
                tmp_dir: home.path(),
                read: &inv.read,
                write: &inv.write,
            };
            confine::confine(cmd, &places, policy, limits)
                .map_err(|e| format!("cannot sandbox {}: {e}", inv.program.display()))?
        }
        _ => (cmd, Guard::none()),
    };
    cmd.stdin(Stdio::piped()).stdout(Stdio::piped()).stderr(Stdio::piped()).kill_on_drop(true);
    #[cfg(unix)]
    cmd.process_group(0);
    let child = cmd.spawn().map_err(|e| format!("cannot start {}: {e}", inv.program.display()))?;
    let group = GroupGuard(child.id());
    Ok(ServerProcess { child, group, _guard: guard, _home: home })
}

#[cfg(all(test, target_os = "linux"))]
mod tests {
    use super::*;
    use tokio::io::AsyncReadExt;

    #[allow(clippy::unwrap_used)] // a test helper: a failure should fail the test loudly
    async fn output(inv: ServerInvocation, policy: &Policy) -> (String, String) {
        let mut server = spawn_server(inv, &ScriptLimits::default(), policy).unwrap();
        let mut out = String::new();
        let mut err = String::new();
        server.child.stdout.take().unwrap().read_to_string(&mut out).await.unwrap();
        server.child.stderr.take().unwrap().read_to_string(&mut err).await.unwrap();
        (out, err)
    }

    fn sh(script: &str) -> ServerInvocation {
        ServerInvocation {
            program: "/bin/sh".into(),
            args: vec!["-c".into(), script.into()],
            ..ServerInvocation::default()
        }
    }

    #[tokio::test]
    async fn a_confined_server_reads_only_its_grant_and_writes_only_where_allowed() {
        let granted = tempfile::tempdir().unwrap();
        let writable = tempfile::tempdir().unwrap();
        let secret = tempfile::tempdir().unwrap();
        std::fs::write(granted.path().join("notes.txt"), "granted").unwrap();
        std::fs::write(secret.path().join("secret.txt"), "secret").unwrap();
        let script = format!(
            "cat {g}/notes.txt; cat {s}/secret.txt || echo refused-read; \
             echo hi > {w}/out.txt && echo wrote; echo no > {g}/x.txt || echo refused-write",
            g = granted.path().display(),
            s = secret.path().display(),
            w = writable.path().display(),
        );
        let mut inv = sh(&script);
        inv.read = vec![granted.path().to_path_buf()];
        inv.write = vec![writable.path().to_path_buf()];
        let (out, _err) = output(inv, &Policy::default()).await;
        assert!(out.contains("granted"), "{out}");
        assert!(out.contains("refused-read") && !out.contains("secret\n"), "{out}");
        assert!(out.contains("wrote"), "{out}");
        assert!(out.contains("refused-write"), "{out}");
        assert_eq!(std::fs::read_to_string(writable.path().join("out.txt")).unwrap(), "hi\n");
        assert!(!granted.path().join("x.txt").exists());
    }

    #[tokio::test]
    async fn a_server_gets_only_the_environment_it_is_given() {
        let policy = Policy {
            trusted: true,
            unsupported: Some("test: unconfined".into()),
            ..Policy::default()
        };
        let mut inv = sh("echo \"token=$TOKEN home=$HOME user_path=$PATH\"");
        inv.env = vec![("TOKEN".into(), "abc".into())];
        let (out, _) = output(inv, &policy).await;
        assert!(out.contains("token=abc"), "{out}");
        assert!(out.contains("home=/tmp") || out.contains("vibe-server-"), "{out}");
        assert!(out.contains(&format!("user_path={SAFE_PATH}")), "{out}");
    }
}
