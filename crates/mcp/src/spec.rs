//! What to connect to and under which limits: [`ServerSpec`] (a resolved server: its name and
//! transport with the secret values already filled in from the keychain) and [`Limits`].
//! Data only; reading settings and the keychain is `vibe-core`'s.

use std::ffi::OsString;
use std::path::PathBuf;
use std::time::Duration;

/// Most tools taken from one server unless configured otherwise.
pub const DEFAULT_MAX_TOOLS: usize = 200;
/// Largest tool result (as JSON) taken from one call unless configured otherwise.
pub const DEFAULT_MAX_RESULT_BYTES: usize = 1 << 20;

/// One server to connect to.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ServerSpec {
    /// Its name (checked with `check_server_name`).
    pub name: String,
    pub transport: Transport,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Transport {
    Stdio(StdioSpec),
    Http(HttpSpec),
}

/// A server the app starts and talks to over its stdin and stdout.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct StdioSpec {
    /// A bare command (looked up) or an absolute path.
    pub command: String,
    pub args: Vec<String>,
    /// Its environment (values included, e.g. tokens from the keychain).
    pub env: Vec<(String, String)>,
    pub grant: Grant,
    /// The `PATH` to look the command up in (the app's own when `None`).
    pub search_path: Option<OsString>,
}

/// What a stdio server may touch beyond its program's folder and the system's programs.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Grant {
    pub network: bool,
    pub read: Vec<PathBuf>,
    pub write: Vec<PathBuf>,
    /// Run it without the sandbox, with all the person's rights (their explicit choice).
    pub unconfined: bool,
}

/// A server reached over streamable HTTP.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct HttpSpec {
    pub url: String,
    /// Sent with every request (values included, e.g. `Authorization` from the keychain).
    pub headers: Vec<(String, String)>,
}

/// Limits of one connection.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Limits {
    /// Starting the server and its `initialize` answer.
    pub connect_timeout: Duration,
    /// One request (a page of tools, a tool call).
    pub call_timeout: Duration,
    pub max_tools: usize,
    pub max_result_bytes: usize,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            connect_timeout: Duration::from_secs(60),
            call_timeout: Duration::from_secs(60),
            max_tools: DEFAULT_MAX_TOOLS,
            max_result_bytes: DEFAULT_MAX_RESULT_BYTES,
        }
    }
}
