//! The one error type of the MCP client ([`McpError`]): each variant says what went wrong
//! with which server in words a person can act on, with the last lines the server wrote to
//! its stderr where there are any. Deciding what a failure means for a turn (the turn goes on
//! without that tool) is the caller's.

use std::fmt;
use std::path::PathBuf;
use std::time::Duration;

/// The last lines a stdio server wrote to its stderr (empty for HTTP servers).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct StderrTail(pub Vec<String>);

impl fmt::Display for StderrTail {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.0.is_empty() {
            return Ok(());
        }
        write!(f, "\nlast lines of its stderr:")?;
        for line in &self.0 {
            write!(f, "\n  {line}")?;
        }
        Ok(())
    }
}

/// Folders looked in for a command, for [`McpError::CommandNotFound`].
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Looked(pub Vec<PathBuf>);

impl fmt::Display for Looked {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let dirs: Vec<String> = self.0.iter().map(|p| p.display().to_string()).collect();
        f.write_str(&dirs.join(", "))
    }
}

/// Why connecting to a server, listing its tools or calling one failed. None is retried
/// here; the caller may reconnect.
#[derive(Debug, thiserror::Error)]
pub enum McpError {
    /// The configuration cannot be used (bad name, URL or header). Nothing was started.
    #[error("MCP server {server}: {reason}")]
    Config { server: String, reason: String },
    /// The stdio server's command is neither on the app's PATH nor in the usual install
    /// folders (desktop apps do not get the PATH of a terminal).
    #[error(
        "MCP server {server}: the command `{command}` was not found; looked in {looked}. Give \
         its absolute path instead (in a terminal, `command -v {command}` prints it)"
    )]
    CommandNotFound { server: String, command: String, looked: Looked },
    /// The program exists but could not be started (or was refused by the sandbox).
    #[error("MCP server {server} could not start: {reason}")]
    Start { server: String, reason: String },
    /// The server process ended (or closed its output) while we talked to it.
    #[error("MCP server {server} stopped ({status}) during {during}{stderr}")]
    Crashed { server: String, status: String, during: String, stderr: StderrTail },
    /// The server did not answer in time.
    #[error(
        "MCP server {server} did not answer {during} within {} s{stderr}",
        after.as_secs_f32()
    )]
    TimedOut { server: String, during: String, after: Duration, stderr: StderrTail },
    /// The server wrote something that is not a JSON-RPC message on its stdout (often a log
    /// line: servers must log to stderr). The connection is closed.
    #[error(
        "MCP server {server} wrote something that is not a JSON-RPC message during {during}: \
         {excerpt:?} (a stdio server must write only MCP messages to stdout, logs to \
         stderr){stderr}"
    )]
    Malformed { server: String, during: String, excerpt: String, stderr: StderrTail },
    /// The server lists more tools than the app takes from one server.
    #[error(
        "MCP server {server} lists more than {limit} tools; the app takes at most {limit} \
         from one server (configure the server to offer fewer)"
    )]
    TooManyTools { server: String, limit: usize },
    /// A result (or one message) is larger than the cap; nothing of it is used.
    #[error(
        "MCP server {server}: the result of {tool} is larger than the {limit} bytes the app \
         takes from one call ({bytes} bytes or more; ask the tool for less)"
    )]
    ResultTooLarge { server: String, tool: String, bytes: usize, limit: usize },
    /// The call was cancelled (the turn was stopped); the server was told.
    #[error("MCP server {server}: the call of {tool} was cancelled")]
    Cancelled { server: String, tool: String },
    /// The server answered with a JSON-RPC error (e.g. an unknown tool).
    #[error("MCP server {server} answered {during} with an error: {message}")]
    Server { server: String, during: String, message: String },
    /// The URL is a server of the older HTTP+SSE transport (MCP 2024-11-05), which the app
    /// cannot speak: the MCP SDK it is built on (rmcp) dropped it in 0.11. The configuration
    /// must change (another address of the server, or run it as a program).
    #[error(
        "MCP server {server} at {url} speaks only the older HTTP+SSE transport, which VibeLife \
         does not support (the MCP SDK it is built on, rmcp, dropped it in version 0.11): give \
         the server's streamable HTTP address instead (often the same host ending in /mcp; see \
         the server's documentation), or add it as a program VibeLife starts (stdio)"
    )]
    OldSse { server: String, url: String },
    /// An HTTP server could not be reached or refused the request.
    #[error("MCP server {server} at {url}: {reason}")]
    Http { server: String, url: String, reason: String },
}

impl McpError {
    /// The failure ended the session (the server stopped or broke the protocol): a later
    /// use must connect again.
    pub fn ends_connection(&self) -> bool {
        matches!(self, McpError::Crashed { .. } | McpError::Malformed { .. })
    }
}
