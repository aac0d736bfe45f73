// The Connections screen's commands (MCP servers, crates/wire/src/command/mcp.rs) through the
// typed client. Secret values only ever travel in (add, import); answers name them. A change
// of the servers (add, import, remove, on/off, permissions) is told to `onConnectionsChanged` listeners
// (the new conversation's prompts list, which stays mounted).

import { call } from "../../client";
import type { AddMcpServerRequest, McpSandbox } from "../../wire";

const listeners = new Set<() => void>();

/** Calls `listener` after the servers changed; returns the unsubscribe. */
export function onConnectionsChanged(listener: () => void): () => void {
  listeners.add(listener);
  return () => void listeners.delete(listener);
}

function changed<T>(p: Promise<T>): Promise<T> {
  return p.then((v) => {
    for (const l of listeners) l();
    return v;
  });
}

export const mcp = {
  list: () => call("list_mcp_servers"),
  add: (request: AddMcpServerRequest) => changed(call("add_mcp_server", request)),
  import: (json: string) => changed(call("import_mcp_servers", { json })),
  remove: (name: string) => changed(call("remove_mcp_server", { name })),
  setEnabled: (name: string, enabled: boolean) => changed(call("set_mcp_server_enabled", { name, enabled })),
  setGrant: (name: string, sandbox: McpSandbox) => changed(call("set_mcp_server_grant", { name, sandbox })),
  tools: (name: string) => call("mcp_server_tools", { name }),
  test: (name: string) => call("test_mcp_server", { name }),
  resources: (name: string) => call("mcp_server_resources", { name }),
  readResource: (server: string, uri: string) => call("read_mcp_resource", { server, uri }),
  setAlwaysAllow: (server: string, tool: string, always_allow: boolean) => call("set_mcp_tool_always_allow", { server, tool, always_allow }),
};
