//! Running one skill script as a child process under limits: confined by `sandbox` (or
//! refused, or unconfined for a trusted skill where no sandbox exists), working dir the skill
//! folder, environment cleared (a minimal `PATH`, `LANG=C.UTF-8`, `HOME` and `TMPDIR` a
//! fresh temp dir), a timeout, stdout/stderr capped with a truncation marker (and a marker
//! when a leftover process kept a pipe open), and the whole run killed on timeout, on
//! completion (no leftovers) and when the call is cancelled. Which scripts may run, and
//! approvals, are `vibe-core`'s business (its `run_script` tool and the agent loop).

use std::path::{Path, PathBuf};
use std::process::Stdio;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use tokio::io::{AsyncRead, AsyncReadExt, AsyncWriteExt};
use tokio::process::Command;

use super::confine::{self, Guard, Mode};
use super::limits::ScriptLimits;
use super::policy::{Places, Policy};

/// `PATH` inside a script: the usual system folders, nothing from the person's shell.
const SAFE_PATH: &str = "/usr/local/bin:/opt/homebrew/bin:/usr/bin:/bin";
/// After the script ended, how long its output pipes may take to drain.
const DRAIN_GRACE: Duration = Duration::from_secs(2);
const READ_CHUNK: usize = 8192;

/// What to run.
pub struct Invocation {
    /// Absolute path of the script file.
    pub script: PathBuf,
    /// The working directory (the skill folder).
    pub cwd: PathBuf,
    pub args: Vec<String>,
    pub stdin: Option<Vec<u8>>,
}

/// How a run ended.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ScriptRun {
    /// `None` when the process was killed by a signal (e.g. on timeout).
    pub exit_code: Option<i32>,
    pub stdout: String,
    pub stderr: String,
    pub timed_out: bool,
    /// `true` when stdout or stderr was cut at the limit.
    pub truncated: bool,
}

/// The program and leading arguments for `script`: `.py` → `python3`, `.sh` → `sh`,
/// anything else must be executable itself.
fn interpreter(script: &Path) -> Result<(PathBuf, Vec<PathBuf>), String> {
    match script.extension().and_then(|e| e.to_str()) {
        Some("py") => Ok(("python3".into(), vec![script.to_path_buf()])),
        Some("sh") => Ok(("sh".into(), vec![script.to_path_buf()])),
        _ if is_executable(script) => Ok((script.to_path_buf(), Vec::new())),
        _ => Err(format!(
            "{} is neither a .py nor a .sh script nor executable; name it *.py or *.sh, or make it executable (chmod +x)",
            script.display()
        )),
    }
}

#[cfg(unix)]
fn is_executable(path: &Path) -> bool {
    use std::os::unix::fs::PermissionsExt;
    std::fs::metadata(path).is_ok_and(|m| m.is_file() && m.permissions().mode() & 0o111 != 0)
}

#[cfg(not(unix))]
fn is_executable(_path: &Path) -> bool {
    false
}

/// Runs `inv` under `limits` and `policy`. `Err` when the script could not be started (or
/// was refused because it cannot be sandboxed).
pub async fn run(
    inv: Invocation,
    limits: ScriptLimits,
    policy: &Policy,
) -> Result<ScriptRun, String> {
    let mode = policy.mode();
    if let Mode::Refused(why) = &mode {
        return Err(format!(
            "refused to run {}: this computer cannot sandbox scripts ({why}). To run this \
             skill's scripts unconfined, with all the person's rights, add the skill to \
             tools.trusted_skills in settings",
            inv.script.display()
        ));
    }
    let (program, lead) = interpreter(&inv.script)?;
    let home = tempfile::Builder::new()
        .prefix("vibe-script-")
        .tempdir()
        .map_err(|e| format!("cannot create a temporary HOME for the script: {e}"))?;
    let mut cmd = Command::new(&program);
    cmd.args(&lead)
        .args(&inv.args)
        .current_dir(&inv.cwd)
        .env_clear()
        .env("PATH", SAFE_PATH)
        .env("LANG", "C.UTF-8")
        .env("HOME", home.path())
        .env("TMPDIR", home.path())
        .env("PYTHONDONTWRITEBYTECODE", "1");
    let (mut cmd, sandbox_guard) = match mode {
        Mode::Confined => {
            let places =
                Places { skill_dir: &inv.cwd, tmp_dir: home.path(), read: &[], write: &[] };
            confine::confine(cmd, &places, policy, &limits)
                .map_err(|e| format!("cannot sandbox {}: {e}", inv.script.display()))?
        }
        _ => (cmd, Guard::none()),
    };
    cmd.stdin(if inv.stdin.is_some() { Stdio::piped() } else { Stdio::null() })
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .kill_on_drop(true);
    #[cfg(unix)]
    cmd.process_group(0);
    let mut child = cmd.spawn().map_err(|e| {
        format!("cannot start {} for {}: {e}", program.display(), inv.script.display())
    })?;
    let mut group = GroupGuard(child.id());
    if let (Some(mut pipe), Some(data)) = (child.stdin.take(), inv.stdin) {
        // A script that does not read its input closes the pipe: that is not an error.
        tokio::spawn(async move {
            let _ = pipe.write_all(&data).await;
        });
    }
    let cap = limits.max_output_bytes;
    let out = child.stdout.take().map(|p| Capture::start(p, cap));
    let err = child.stderr.take().map(|p| Capture::start(p, cap));
    let (status, timed_out) = match tokio::time::timeout(limits.timeout, child.wait()).await {
        Ok(status) => (status.ok(), false),
        Err(_) => {
            group.kill();
            let _ = child.start_kill();
            (child.wait().await.ok(), true)
        }
    };
    // Background processes the script left would hold the pipes open.
    group.kill();
    group.0 = None;
    let (stdout, out_cut) = drain(out, cap).await;
    let (mut stderr, err_cut) = drain(err, cap).await;
    if let Some(note) = sandbox_guard.note() {
        stderr.push_str(if stderr.is_empty() || stderr.ends_with('\n') { "" } else { "\n" });
        stderr.push_str(&note);
    }
    Ok(ScriptRun {
        exit_code: status.and_then(|s| s.code()),
        stdout,
        stderr,
        timed_out,
        truncated: out_cut || err_cut,
    })
}

/// One output pipe being read in the background; what it read so far stays readable.
struct Capture {
    got: Arc<Mutex<(Vec<u8>, u64)>>,
    task: tokio::task::JoinHandle<()>,
}

impl Capture {
    fn start<R: AsyncRead + Unpin + Send + 'static>(pipe: R, cap: usize) -> Capture {
        let got = Arc::new(Mutex::new((Vec::new(), 0)));
        let task = tokio::spawn(read_capped(pipe, cap, got.clone()));
        Capture { got, task }
    }
}

/// Waits (bounded) for the pipe to close; a pipe some leftover process still holds open gives
/// what was read so far and a marker saying so, never nothing.
async fn drain(capture: Option<Capture>, cap: usize) -> (String, bool) {
    let Some(Capture { got, mut task }) = capture else { return (String::new(), false) };
    let closed = tokio::time::timeout(DRAIN_GRACE, &mut task).await.is_ok();
    task.abort();
    let (bytes, total) = std::mem::take(&mut *got.lock().unwrap_or_else(|e| e.into_inner()));
    let (mut text, cut) = render(&bytes, total, cap);
    if !closed {
        text.push_str(&format!(
            "\n[output still open {} s after the script ended (a process it left kept it); \
             anything written later is not shown]",
            DRAIN_GRACE.as_secs()
        ));
    }
    (text, cut || !closed)
}

/// Reads everything into `got`, keeping the first `cap` bytes and counting the total.
async fn read_capped<R: AsyncRead + Unpin>(
    mut pipe: R,
    cap: usize,
    got: Arc<Mutex<(Vec<u8>, u64)>>,
) {
    let mut chunk = vec![0u8; READ_CHUNK];
    loop {
        match pipe.read(&mut chunk).await {
            Ok(0) | Err(_) => break,
            Ok(n) => {
                let mut got = got.lock().unwrap_or_else(|e| e.into_inner());
                let (kept, total) = &mut *got;
                *total += n as u64;
                let room = cap.saturating_sub(kept.len()).min(n);
                kept.extend_from_slice(&chunk[..room]);
            }
        }
    }
}

/// The kept bytes as text (a character cut at the limit is dropped, not mangled), with a
/// marker line when output was cut.
pub(crate) fn render(kept: &[u8], total: u64, cap: usize) -> (String, bool) {
    let cut = total > kept.len() as u64 || kept.len() > cap;
    let kept = &kept[..kept.len().min(cap)];
    let valid = match std::str::from_utf8(kept) {
        Ok(_) => kept.len(),
        Err(e) if e.error_len().is_none() && cut => e.valid_up_to(),
        Err(_) => kept.len(),
    };
    let mut text = String::from_utf8_lossy(&kept[..valid]).into_owned();
    if cut {
        let more = total.saturating_sub(valid as u64);
        text.push_str(&format!("\n[truncated: {more} more bytes not shown; limit {cap} bytes]"));
    }
    (text, cut)
}

/// Kills the script's whole process group when dropped (cancellation) or asked to.
pub(crate) struct GroupGuard(pub(crate) Option<u32>);

impl GroupGuard {
    pub(crate) fn kill(&self) {
        #[cfg(unix)]
        if let Some(pid) = self.0.and_then(|p| i32::try_from(p).ok()).filter(|p| *p > 0)
            && let Some(pid) = rustix::process::Pid::from_raw(pid)
        {
            // ESRCH (nothing left to kill) is the normal case after a clean exit.
            let _ = rustix::process::kill_process_group(pid, rustix::process::Signal::KILL);
        }
    }
}

impl Drop for GroupGuard {
    fn drop(&mut self) {
        self.kill();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn output_under_the_cap_is_kept_whole() {
        assert_eq!(render(b"hello", 5, 10), ("hello".to_string(), false));
    }

    #[test]
    fn output_over_the_cap_gets_a_marker() {
        let (text, cut) = render(b"hello", 105, 5);
        assert!(cut);
        assert!(text.starts_with("hello\n[truncated: 100 more bytes"), "{text}");
    }

    #[test]
    fn a_character_cut_at_the_cap_is_dropped() {
        let bytes = "你好".as_bytes();
        let (text, cut) = render(&bytes[..4], 6, 4);
        assert!(cut);
        assert!(text.starts_with("你\n[truncated: 3 more bytes"), "{text}");
    }

    #[test]
    fn interpreters_follow_the_extension() {
        assert_eq!(interpreter(Path::new("/s/a.py")).unwrap().0, PathBuf::from("python3"));
        assert_eq!(interpreter(Path::new("/s/a.sh")).unwrap().0, PathBuf::from("sh"));
        let e = interpreter(Path::new("/nonexistent/a.rb")).unwrap_err();
        assert!(e.contains("chmod +x"), "{e}");
    }
}
