//! The real MCP servers the tests start: the reference "everything" server from npm, installed
//! by scripts/mcp-env.sh into crates/mcp/tests/npm (scripts/test.sh sources it), a small one
//! written with the `mcp` package from PyPI (mcp/python_server.py, run by the venv's python
//! mcp-env.sh makes), and our own misbehaving one (mcp/misbehaving.mjs, plain Node). Starting
//! and configuring them is each test's.

use std::path::PathBuf;

/// The "everything" server's script (run it as `node SCRIPT stdio`).
///
/// # Panics
/// When it is not installed, saying how to install it.
pub fn everything_server() -> PathBuf {
    let script = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join(
        "../mcp/tests/npm/node_modules/@modelcontextprotocol/server-everything/dist/index.js",
    );
    assert!(
        script.is_file(),
        "{} is missing: run `bash scripts/mcp-env.sh` (scripts/test.sh does)",
        script.display()
    );
    script
}

/// Our own misbehaving server's script (`node SCRIPT MODE`; its header lists the modes: a
/// crash, a hang or garbage in the middle of a call, 500 tools, a huge result, a tool list
/// that grows). Plain Node, no packages.
pub fn misbehaving_server() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("mcp/misbehaving.mjs")
}

/// The Python server: the venv's python (`VIBE_MCP_PYTHON`, else the venv scripts/mcp-env.sh
/// makes under `$HOME/.cache/vibelife`) and the script (run it as `PYTHON SCRIPT`; stdio).
///
/// # Panics
/// When the venv's python is missing, saying how to make it.
pub fn python_server() -> (PathBuf, PathBuf) {
    let python = std::env::var_os("VIBE_MCP_PYTHON").map(PathBuf::from).unwrap_or_else(|| {
        let home = std::env::var_os("HOME").map(PathBuf::from).unwrap_or_default();
        home.join(".cache/vibelife/mcp-python-venv/bin/python")
    });
    assert!(
        python.is_file(),
        "{} is missing: run `bash scripts/mcp-env.sh` (scripts/test.sh does) to make the venv \
         with the `mcp` package",
        python.display()
    );
    let script = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("mcp/python_server.py");
    (python, script)
}

/// The "everything" server over HTTP on a free port (listening on every interface: the
/// server takes no address), started by the test and killed when dropped.
pub struct EverythingHttp {
    child: std::process::Child,
    /// The port it listens on.
    pub port: u16,
}

impl EverythingHttp {
    /// Start it in `mode`: `streamableHttp` (its endpoint is `/mcp`) or `sse`, the older
    /// HTTP+SSE transport (`/sse`); answers once it says it listens.
    ///
    /// # Panics
    /// When it cannot start or stops before it listens.
    pub fn start(mode: &str) -> Self {
        use std::io::BufRead;
        let port = std::net::TcpListener::bind("127.0.0.1:0")
            .and_then(|l| l.local_addr())
            .map(|a| a.port())
            .unwrap_or_else(|e| panic!("no free port on 127.0.0.1: {e}"));
        let mut child = std::process::Command::new("node")
            .arg(everything_server())
            .arg(mode)
            .env("PORT", port.to_string())
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::piped())
            .spawn()
            .unwrap_or_else(|e| panic!("node cannot start ({e}): run `bash scripts/mcp-env.sh`"));
        let stderr = child.stderr.take().unwrap_or_else(|| panic!("its stderr is piped"));
        let server = EverythingHttp { child, port };
        let mut lines = std::io::BufReader::new(stderr).lines();
        let mut listening = false;
        for line in lines.by_ref().map_while(Result::ok) {
            assert!(!line.contains("Failed to start"), "{line}");
            if line.contains("listening on port") || line.contains("is running on port") {
                listening = true;
                break;
            }
        }
        assert!(listening, "the everything server ({mode}) stopped before it listened");
        // Keep draining its stderr so it never blocks on a full pipe.
        std::thread::spawn(move || lines.for_each(drop));
        server
    }
}

impl Drop for EverythingHttp {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}
