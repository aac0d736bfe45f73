"""A small MCP server written with the `mcp` package from the Python package index (its
MCPServer, the SDK's high-level server), for VibeLife's tests: started over stdio by
crates/mcp/tests (tools/list, a call) and crates/core/tests (a whole chat turn), with the
venv scripts/mcp-env.sh makes ($HOME/.cache/vibelife/mcp-python-venv). Its tools answer
deterministically, so a test can look for their result in the coach's answer."""

from mcp.server.mcpserver import MCPServer
from mcp.server.mcpserver.exceptions import ToolError

server = MCPServer(
    "vibe-python-test",
    instructions="Mood arithmetic for tests: averages of mood scores.",
)


@server.tool(annotations={"readOnlyHint": True})
def mood_average(scores: list[int]) -> str:
    """The average of mood scores from 1 to 10, and how many scores there were."""
    if not scores:
        raise ToolError("no scores given: pass at least one score from 1 to 10")
    bad = [s for s in scores if not 1 <= s <= 10]
    if bad:
        raise ToolError(f"scores must be from 1 to 10, not {bad}")
    average = sum(scores) / len(scores)
    return f"mood average {average:.2f} over {len(scores)} scores (python-mcp)"


@server.tool()
def count_words(text: str) -> int:
    """How many words `text` has (split on whitespace)."""
    return len(text.split())


if __name__ == "__main__":
    server.run()
