//! A stdio server's side of a connection: finding its program, starting it through
//! `vibe-sandbox` (confined with its grant, or unconfined by choice), relaying its stdout to
//! the SDK one checked message at a time (a line that is not JSON, or is larger than the cap,
//! closes the connection and is remembered as the [`Fault`]), keeping the last lines of its
//! stderr, and telling how it ended. Speaking MCP is `client`'s.

use std::collections::VecDeque;
use std::path::PathBuf;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use futures::StreamExt;
use tokio::io::{AsyncWriteExt, DuplexStream};
use tokio::process::ChildStdin;
use tokio_util::codec::{AnyDelimiterCodec, AnyDelimiterCodecError, FramedRead};
use vibe_sandbox::{Policy, ScriptLimits, ServerInvocation, ServerProcess, spawn_server};

use crate::error::{Looked, McpError, StderrTail};
use crate::resolve::{default_read, resolve_program, search_dirs};
use crate::spec::{Limits, StdioSpec};

/// Lines of stderr kept.
const STDERR_LINES: usize = 20;
/// Longest stderr line kept whole.
const STDERR_LINE_BYTES: usize = 500;
/// System files every confined server may read besides the sandbox's own list.
const SERVER_READ: [&str; 2] = ["/etc/ssl/openssl.cnf", "/usr/lib/ssl/openssl.cnf"];
/// Memory of a confined server (node reserves a lot of address space up front).
const SERVER_MEMORY: u64 = 4 << 30;
/// Processes (threads included) of a confined server at once.
const SERVER_PROCESSES: u32 = 64;
/// A long-lived server's CPU seconds are not bounded like a script's.
const SERVER_CPU_LIMIT: Duration = Duration::from_secs(7 * 24 * 3600);

/// Why the relay closed the connection.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Fault {
    /// A line of stdout that is not a JSON-RPC message (its start).
    Malformed(String),
    /// A message larger than this many bytes.
    TooLarge(usize),
}

/// A running stdio server.
pub(crate) struct Stdio {
    process: tokio::sync::Mutex<ServerProcess>,
    stderr: Arc<Mutex<VecDeque<String>>>,
    fault: Arc<Mutex<Option<Fault>>>,
}

impl Stdio {
    pub(crate) fn stderr(&self) -> StderrTail {
        StderrTail(lock(&self.stderr).iter().cloned().collect())
    }

    pub(crate) fn fault(&self) -> Option<Fault> {
        lock(&self.fault).clone()
    }

    /// How the process ended, waiting up to `wait` for it (its output closes first).
    pub(crate) async fn status(&self, wait: Duration) -> String {
        let mut process = self.process.lock().await;
        match tokio::time::timeout(wait, process.child.wait()).await {
            Ok(Ok(status)) => match status.code() {
                Some(code) => format!("exit code {code}"),
                None => format!("ended by a signal: {status}"),
            },
            Ok(Err(e)) => format!("its status is unknown: {e}"),
            Err(_) => "it closed its output but is still running".to_string(),
        }
    }

    pub(crate) async fn kill(&self) {
        self.process.lock().await.kill();
    }
}

fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}

/// Starts the server: returns it, the checked stream of its messages and its stdin.
pub(crate) fn start(
    name: &str,
    spec: &StdioSpec,
    limits: &Limits,
) -> Result<(Stdio, DuplexStream, ChildStdin), McpError> {
    let path_env = spec.search_path.clone().or_else(|| std::env::var_os("PATH"));
    let dirs = search_dirs(path_env.as_deref(), dirs::home_dir().as_deref());
    let program =
        resolve_program(&spec.command, &dirs).map_err(|looked| McpError::CommandNotFound {
            server: name.to_string(),
            command: spec.command.clone(),
            looked: Looked(looked),
        })?;
    let mut read = default_read(&program, &spec.args);
    // OpenSSL's configuration, which node reads at start-up (only where it exists).
    read.extend(SERVER_READ.iter().map(PathBuf::from).filter(|p| p.exists()));
    read.extend(spec.grant.read.iter().cloned());
    // The program's folder first on PATH: `npx` finds the `node` beside it.
    let mut path = program.parent().map(|p| p.display().to_string()).unwrap_or_default();
    path.push_str(":/usr/local/bin:/opt/homebrew/bin:/usr/bin:/bin");
    let mut env = vec![("PATH".to_string(), path)];
    env.extend(spec.env.iter().cloned());
    let inv = ServerInvocation {
        program: program.clone(),
        args: spec.args.clone(),
        env,
        read,
        write: spec.grant.write.clone(),
    };
    let policy = if spec.grant.unconfined {
        Policy {
            network: true,
            trusted: true,
            unsupported: Some("the person chose to run this server unconfined".to_string()),
        }
    } else {
        Policy { network: spec.grant.network, ..Policy::default() }
    };
    let script_limits = ScriptLimits {
        timeout: SERVER_CPU_LIMIT,
        max_memory_bytes: SERVER_MEMORY,
        max_processes: SERVER_PROCESSES,
        ..ScriptLimits::default()
    };
    let mut process = spawn_server(inv, &script_limits, &policy)
        .map_err(|reason| McpError::Start { server: name.to_string(), reason })?;
    let start_error = |what: &str| McpError::Start {
        server: name.to_string(),
        reason: format!("its {what} is not piped"),
    };
    let stdin = process.child.stdin.take().ok_or_else(|| start_error("stdin"))?;
    let stdout = process.child.stdout.take().ok_or_else(|| start_error("stdout"))?;
    let stderr_pipe = process.child.stderr.take().ok_or_else(|| start_error("stderr"))?;
    let stderr = Arc::new(Mutex::new(VecDeque::new()));
    let fault = Arc::new(Mutex::new(None));
    tokio::spawn(keep_stderr(stderr_pipe, stderr.clone()));
    let (sdk_side, relay_side) = tokio::io::duplex(64 * 1024);
    let max_message = limits.max_result_bytes.saturating_add(64 * 1024);
    tokio::spawn(relay(stdout, relay_side, max_message, fault.clone()));
    let stdio = Stdio { process: tokio::sync::Mutex::new(process), stderr, fault };
    Ok((stdio, sdk_side, stdin))
}

/// Passes each whole line of `stdout` on to `to` while it is a JSON object or array no larger
/// than `max`; otherwise records the fault and stops (closing `to`).
async fn relay(
    stdout: tokio::process::ChildStdout,
    mut to: DuplexStream,
    max: usize,
    fault: Arc<Mutex<Option<Fault>>>,
) {
    let codec = AnyDelimiterCodec::new_with_max_length(b"\n".to_vec(), Vec::new(), max);
    let mut lines = FramedRead::new(stdout, codec);
    while let Some(item) = lines.next().await {
        let line = match item {
            Ok(line) => line,
            Err(AnyDelimiterCodecError::MaxChunkLengthExceeded) => {
                *lock(&fault) = Some(Fault::TooLarge(max));
                break;
            }
            Err(AnyDelimiterCodecError::Io(_)) => break,
        };
        let line = line.strip_suffix(b"\r").unwrap_or(&line);
        if line.iter().all(u8::is_ascii_whitespace) {
            continue;
        }
        let parsed: Result<serde_json::Value, _> = serde_json::from_slice(line);
        if !matches!(parsed, Ok(serde_json::Value::Object(_) | serde_json::Value::Array(_))) {
            let text = String::from_utf8_lossy(line);
            *lock(&fault) = Some(Fault::Malformed(text.chars().take(200).collect()));
            break;
        }
        if to.write_all(line).await.is_err() || to.write_all(b"\n").await.is_err() {
            break;
        }
    }
    let _ = to.shutdown().await;
}

/// Keeps the last [`STDERR_LINES`] lines of the server's stderr.
async fn keep_stderr(pipe: tokio::process::ChildStderr, into: Arc<Mutex<VecDeque<String>>>) {
    let codec = AnyDelimiterCodec::new_with_max_length(b"\n".to_vec(), Vec::new(), 64 * 1024);
    let mut lines = FramedRead::new(pipe, codec);
    while let Some(item) = lines.next().await {
        let Ok(line) = item else {
            // A line over 64 KiB is skipped; an I/O error ends the reading.
            continue;
        };
        let mut text = String::from_utf8_lossy(&line).trim_end().to_string();
        if text.is_empty() {
            continue;
        }
        if text.len() > STDERR_LINE_BYTES {
            let cut =
                (0..=STDERR_LINE_BYTES).rev().find(|i| text.is_char_boundary(*i)).unwrap_or(0);
            text.truncate(cut);
            text.push('…');
        }
        let mut kept = lock(&into);
        if kept.len() == STDERR_LINES {
            kept.pop_front();
        }
        kept.push_back(text);
    }
}

/// The folders a confined server reads by default, for describing a grant.
pub fn readable_by_default(spec: &StdioSpec) -> Option<Vec<PathBuf>> {
    let path_env = spec.search_path.clone().or_else(|| std::env::var_os("PATH"));
    let dirs = search_dirs(path_env.as_deref(), dirs::home_dir().as_deref());
    resolve_program(&spec.command, &dirs).ok().map(|p| default_read(&p, &spec.args))
}
