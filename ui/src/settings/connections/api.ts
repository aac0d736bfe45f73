// The Connections screen's commands (MCP servers, crates/wire/src/command/mcp.rs) through the
// typed client. Secret values only ever travel in (add, import); answers name them.

import { call } from "../../client";
import type { AddMcpServerRequest } from "../../wire";

export const mcp = {
  list: () => call("list_mcp_servers"),
  add: (request: AddMcpServerRequest) => call("add_mcp_server", request),
  import: (json: string) => call("import_mcp_servers", { json }),
  remove: (name: string) => call("remove_mcp_server", { name }),
  setEnabled: (name: string, enabled: boolean) => call("set_mcp_server_enabled", { name, enabled }),
  tools: (name: string) => call("mcp_server_tools", { name }),
  test: (name: string) => call("test_mcp_server", { name }),
  setAlwaysAllow: (server: string, tool: string, always_allow: boolean) => call("set_mcp_tool_always_allow", { server, tool, always_allow }),
};
