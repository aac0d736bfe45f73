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
