//! The connected MCP servers of one chat service ([`Connections`], docs/mcp.md "What the coach
//! sees"): each enabled server connected once, in the background (started by the app early or
//! by the first turn, which waits for it only briefly; the tools listed then are kept, and
//! listed again when the server says they changed), the catalogue line a model reads for
//! each, calls to a server's tool under the turn's cancellation (a call that ended the
//! session lets the next use connect again), and which tools the person always allows. Resolving settings and
//! secrets into [`ServerSpec`]s and writing "always allow" to the settings are `vibe-core`'s;
//! offering tools, approvals and turning a result into an observation are the tools'.

use std::collections::{BTreeMap, BTreeSet};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, OnceLock, PoisonError};
use std::time::Duration;

use serde_json::{Map, Value};
use tokio::sync::{OnceCell, watch};
use tokio_util::sync::CancellationToken;
use vibe_mcp::{Connection, Limits, McpError, ServerSpec, ToolInfo};

/// Longest catalogue line summary, in characters.
const SUMMARY_CHARS: usize = 80;
/// Longest error shown for an unavailable server, in characters.
const ERROR_CHARS: usize = 80;

/// One configured server as the app resolved it.
pub struct ServerConfig {
    /// Its name (`mcp.servers.NAME`).
    pub name: String,
    /// What to connect to, or why it cannot be (a secret missing from the keychain).
    pub spec: Result<ServerSpec, String>,
    /// Its tools the person always allows (server's own names).
    pub always_allow: Vec<String>,
}

/// A server connected, with its tools as listed at connect time.
pub struct Live {
    conn: Arc<Connection>,
    pub tools: Vec<ToolInfo>,
    /// The one-line summary of the catalogue.
    pub summary: String,
}

/// A server's state: unset until it was tried, then connected or why not.
type State = OnceCell<Result<Arc<Live>, String>>;

struct Server {
    spec: Result<ServerSpec, String>,
    always: Mutex<BTreeSet<String>>,
    /// Replaced (never reset in place) when its tools changed or its session ended.
    state: Mutex<Arc<State>>,
}

impl Server {
    fn state(&self) -> Arc<State> {
        Arc::clone(&lock(&self.state))
    }
}

/// The enabled servers of a chat service. Cheap to share behind an `Arc`.
pub struct Connections {
    servers: BTreeMap<String, Server>,
    limits: Limits,
    /// Set once connecting was started in the background: `true` when every server was tried.
    settled: OnceLock<watch::Receiver<bool>>,
    /// How many times a server's state was replaced: what a model is offered is rebuilt
    /// when it moves.
    version: AtomicU64,
}

impl Connections {
    /// The servers of `configs`, connected lazily under `limits`.
    pub fn new(configs: Vec<ServerConfig>, limits: Limits) -> Connections {
        let servers = configs
            .into_iter()
            .map(|c| {
                let server = Server {
                    spec: c.spec,
                    always: Mutex::new(c.always_allow.into_iter().collect()),
                    state: Mutex::new(Arc::new(OnceCell::new())),
                };
                (c.name, server)
            })
            .collect();
        Connections { servers, limits, settled: OnceLock::new(), version: AtomicU64::new(0) }
    }

    pub fn is_empty(&self) -> bool {
        self.servers.is_empty()
    }

    /// The servers' names, sorted.
    pub fn names(&self) -> Vec<&str> {
        self.servers.keys().map(String::as_str).collect()
    }

    /// Connects every server not tried yet, all at once; a failure is kept as the server's
    /// state (shown in the catalogue) and tried again only by a new chat service.
    pub async fn connect_all(&self) {
        let tries = self.servers.keys().map(|name| self.live(name));
        futures::future::join_all(tries).await;
    }

    /// Starts connecting every server in the background on `runtime` (once per hub: later
    /// calls only watch it). The receiver turns `true` when every server was tried.
    pub fn start(self: &Arc<Self>, runtime: &tokio::runtime::Handle) -> watch::Receiver<bool> {
        self.settled
            .get_or_init(|| {
                let (done, settled) = watch::channel(false);
                let hub = Arc::clone(self);
                runtime.spawn(async move {
                    hub.connect_all().await;
                    // Nobody may be watching any more: nothing to tell then.
                    let _ = done.send(true);
                });
                settled
            })
            .clone()
    }

    /// Waits until every server was tried, or `wait` passed, whichever comes first (a turn
    /// does not wait a slow server's whole connect timeout: it goes on, and the server is
    /// listed as still connecting; connecting goes on in the background).
    pub async fn settle(self: &Arc<Self>, wait: Duration) {
        let mut settled = self.start(&tokio::runtime::Handle::current());
        // A dropped sender (the task ended by its runtime) is as good as settled.
        let _ = tokio::time::timeout(wait, settled.wait_for(|done| *done)).await;
    }

    /// The server connected (connecting it on first use), or why it is unavailable.
    pub async fn live(&self, name: &str) -> Result<Arc<Live>, String> {
        let Some(server) = self.servers.get(name) else {
            return Err(format!(
                "no connection is named `{name}`; choose one of: {}",
                self.names().join(", ")
            ));
        };
        let state = server.state();
        state.get_or_init(|| connect(name, &server.spec, self.limits)).await.clone()
    }

    /// The server's state if it was tried (`None`: not yet).
    pub fn tried(&self, name: &str) -> Option<Result<Arc<Live>, String>> {
        self.servers.get(name)?.state().get().cloned()
    }

    /// Moves when a server's tools or session changed (see [`Connections::refresh`]).
    pub fn version(&self) -> u64 {
        self.version.load(Ordering::Acquire)
    }

    /// `server`'s state becomes `new`, unless it was replaced since `old` was read.
    fn replace(&self, server: &Server, old: &Arc<State>, new: State) {
        let mut state = lock(&server.state);
        if Arc::ptr_eq(&state, old) {
            *state = Arc::new(new);
            self.version.fetch_add(1, Ordering::AcqRel);
        }
    }

    /// Lists again the tools of each connected server that said they changed
    /// (`notifications/tools/list_changed`), so the next model round sees the change; a
    /// listing that fails makes the server unavailable with the reason.
    pub async fn refresh(&self) {
        for server in self.servers.values() {
            let state = server.state();
            let Some(Ok(live)) = state.get() else { continue };
            if !live.conn.take_tools_changed() {
                continue;
            }
            let listed = match live.conn.list_tools().await {
                Ok(tools) => Ok(Arc::new(Live::new(Arc::clone(&live.conn), tools))),
                Err(e) => Err(e.to_string()),
            };
            self.replace(server, &state, OnceCell::new_with(Some(listed)));
        }
    }

    /// One line per server for a model: its name and what it offers, or that it is
    /// unavailable and why. Servers not tried yet say so.
    pub fn catalogue(&self) -> Vec<String> {
        self.servers
            .keys()
            .map(|name| {
                let state = self.tried(name).map(|s| s.map(|live| live.summary.clone()));
                catalogue_line(name, state)
            })
            .collect()
    }

    /// Whether the person always allows `tool` (the server's own name) of `server`.
    pub fn always_allowed(&self, server: &str, tool: &str) -> bool {
        self.servers.get(server).is_some_and(|s| lock(&s.always).contains(tool))
    }

    /// Remember that the person always allows `tool` of `server` (for this service; the
    /// setting is written by the app).
    pub fn allow_always(&self, server: &str, tool: &str) {
        if let Some(s) = self.servers.get(server) {
            lock(&s.always).insert(tool.to_string());
        }
    }

    /// Ask again before each call of `tool` of `server` (the person took back "always allow").
    pub fn ask_again(&self, server: &str, tool: &str) {
        if let Some(s) = self.servers.get(server) {
            lock(&s.always).remove(tool);
        }
    }

    /// Calls `tool` (the server's own name) of `server`.
    pub async fn call(
        &self,
        server: &str,
        tool: &str,
        arguments: Map<String, Value>,
        cancel: &CancellationToken,
    ) -> Result<vibe_mcp::ToolOutput, CallError> {
        let Some(entry) = self.servers.get(server) else {
            return Err(CallError::Unavailable(format!("no connection is named `{server}`")));
        };
        let state = entry.state();
        let live = state.get_or_init(|| connect(server, &entry.spec, self.limits)).await;
        let live = live.clone().map_err(CallError::Unavailable)?;
        let result = live.conn.call_tool(tool, arguments, cancel).await;
        if let Err(e) = &result
            && (e.ends_connection() || live.conn.is_closed())
        {
            // The session is over: the next use starts (or reaches) the server again.
            self.replace(entry, &state, OnceCell::new());
        }
        result.map_err(CallError::Mcp)
    }
}

/// Why a call did not give a result.
#[derive(Debug, thiserror::Error)]
pub enum CallError {
    /// The server could not be connected (the reason as the catalogue shows it).
    #[error("the server is unavailable: {0}")]
    Unavailable(String),
    #[error(transparent)]
    Mcp(#[from] McpError),
}

fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(PoisonError::into_inner)
}

async fn connect(
    name: &str,
    spec: &Result<ServerSpec, String>,
    limits: Limits,
) -> Result<Arc<Live>, String> {
    let spec = spec.as_ref().map_err(Clone::clone)?;
    let conn = Connection::connect(spec, limits).await.map_err(|e| e.to_string())?;
    let tools = match conn.list_tools().await {
        Ok(tools) => tools,
        Err(e) => {
            conn.close().await;
            return Err(e.to_string());
        }
    };
    tracing::debug!(server = name, tools = tools.len(), "MCP server connected");
    Ok(Arc::new(Live::new(Arc::new(conn), tools)))
}

impl Live {
    /// The session (for a server's prompts and resources).
    pub fn connection(&self) -> &Connection {
        &self.conn
    }

    fn new(conn: Arc<Connection>, tools: Vec<ToolInfo>) -> Live {
        let summary = summary(conn.instructions().as_deref(), conn.server_info(), &tools);
        Live { conn, tools, summary }
    }
}

/// The catalogue line of `server`: its summary, or why it is unavailable (`None`: not
/// tried yet).
pub fn catalogue_line(server: &str, state: Option<Result<String, String>>) -> String {
    match state {
        Some(Ok(summary)) => format!("- {server}: {summary}"),
        Some(Err(e)) => format!("- {server}: unavailable ({})", cap(&e, ERROR_CHARS)),
        None => format!("- {server}: still connecting (use_connection waits for it)"),
    }
}

/// A server's one-line summary: the first line of its instructions, else its title, then
/// its tools' names — capped.
pub fn summary(
    instructions: Option<&str>,
    info: Option<(String, String)>,
    tools: &[ToolInfo],
) -> String {
    let first_line = instructions
        .and_then(|i| i.lines().map(str::trim).find(|l| !l.is_empty()))
        .map(str::to_string);
    let title = info.map(|(name, _)| name).filter(|n| !n.trim().is_empty());
    let names: Vec<&str> = tools.iter().map(|t| t.name.as_str()).collect();
    let tools_part = format!("{} tools: {}", tools.len(), names.join(", "));
    let text = match first_line.or(title) {
        Some(head) => format!("{head}; {tools_part}"),
        None => tools_part,
    };
    cap(&text, SUMMARY_CHARS)
}

/// `text` on one line, at most `max` characters (an ellipsis marks a cut).
pub(crate) fn cap(text: &str, max: usize) -> String {
    let one_line: String = text.split_whitespace().collect::<Vec<_>>().join(" ");
    if one_line.chars().count() <= max {
        return one_line;
    }
    let mut cut: String = one_line.chars().take(max.saturating_sub(1)).collect();
    cut.push('…');
    cut
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tool(name: &str) -> ToolInfo {
        ToolInfo {
            name: name.into(),
            model_name: format!("mcp__s__{name}"),
            title: None,
            description: None,
            input_schema: Value::Null,
            read_only: None,
            destructive: None,
            open_world: None,
        }
    }

    #[test]
    fn a_summary_is_one_capped_line() {
        let tools: Vec<ToolInfo> = (0..40).map(|i| tool(&format!("tool_{i}"))).collect();
        let s = summary(Some("\n  Reads your calendar.\nMore."), None, &tools);
        assert!(s.starts_with("Reads your calendar.; 40 tools: tool_0, tool_1"), "{s}");
        assert!(s.chars().count() <= SUMMARY_CHARS && s.ends_with('…'), "{s}");
        let s = summary(None, Some(("notes-server".into(), "1.0".into())), &tools[..2]);
        assert_eq!(s, "notes-server; 2 tools: tool_0, tool_1");
    }

    #[tokio::test]
    async fn a_server_that_cannot_connect_is_unavailable_with_its_reason() {
        let hub = Connections::new(
            vec![ServerConfig {
                name: "cal".into(),
                spec: Err("the value of TOKEN for server cal is not in the keychain".into()),
                always_allow: vec!["list".into()],
            }],
            Limits::default(),
        );
        assert_eq!(hub.catalogue(), ["- cal: still connecting (use_connection waits for it)"]);
        hub.connect_all().await;
        let line = &hub.catalogue()[0];
        assert!(line.starts_with("- cal: unavailable (the value of TOKEN"), "{line}");
        assert!(hub.always_allowed("cal", "list") && !hub.always_allowed("cal", "add"));
        hub.allow_always("cal", "add");
        assert!(hub.always_allowed("cal", "add"));
        let e = hub.live("nope").await.err().unwrap();
        assert!(e.contains("choose one of: cal"), "{e}");
    }

    /// A server that never answers `initialize` (a program that reads nothing and sleeps).
    fn hanging(name: &str) -> ServerConfig {
        let spec = ServerSpec {
            name: name.into(),
            transport: vibe_mcp::Transport::Stdio(vibe_mcp::StdioSpec {
                command: "sleep".into(),
                args: vec!["30".into()],
                env: Vec::new(),
                grant: vibe_mcp::Grant { unconfined: true, ..Default::default() },
                search_path: None,
            }),
        };
        ServerConfig { name: name.into(), spec: Ok(spec), always_allow: Vec::new() }
    }

    #[tokio::test]
    async fn a_turn_does_not_wait_for_a_server_that_hangs() {
        let broken = ServerConfig {
            name: "broken".into(),
            spec: Err("the command `nope` was not found".into()),
            always_allow: Vec::new(),
        };
        let hub = Arc::new(Connections::new(vec![broken, hanging("slow")], Limits::default()));
        // The connect timeout is a minute; settling gives up long before it.
        hub.settle(Duration::from_millis(300)).await;
        assert_eq!(
            hub.catalogue(),
            [
                "- broken: unavailable (the command `nope` was not found)",
                "- slow: still connecting (use_connection waits for it)",
            ]
        );
        assert!(hub.tried("slow").is_none());
        // Started once: a second settle watches the same attempt.
        hub.settle(Duration::from_millis(10)).await;
        assert!(hub.tried("slow").is_none());
    }
}
