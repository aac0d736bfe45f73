# Set-up for the MCP client's tests (sourced by scripts/test.sh before the workspace tests):
# Node.js and npm when `node` is missing, and the real MCP servers from npm the tests start
# (crates/mcp/tests/npm, locked), installed when node_modules is absent or older than the lock;
# and a venv with the `mcp` package from PyPI for our small Python server.

if ! command -v node >/dev/null 2>&1 || ! command -v npm >/dev/null 2>&1; then
  apt_install "the MCP tests" nodejs npm
fi
MCP_NPM="$ROOT/crates/mcp/tests/npm"
if [ ! -f "$MCP_NPM/node_modules/.package-lock.json" ] ||
  [ "$MCP_NPM/package-lock.json" -nt "$MCP_NPM/node_modules/.package-lock.json" ]; then
  echo "installing the MCP tests' npm servers (npm ci)"
  (cd "$MCP_NPM" && { npm ci --no-audit --no-fund || npm install --no-audit --no-fund; })
fi

# A small MCP server written with the `mcp` package from PyPI (crates/test-support/mcp/
# python_server.py) runs under this venv's python in the MCP tests.
MCP_PYTHON_VENV="$HOME/.cache/vibelife/mcp-python-venv"
ensure_venv "$MCP_PYTHON_VENV" mcp.server.mcpserver 'mcp>=2,<3'
export VIBE_MCP_PYTHON="$MCP_PYTHON_VENV/bin/python"
