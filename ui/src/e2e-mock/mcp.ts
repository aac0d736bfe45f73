// The mock shell's MCP servers (Settings → Connections): add, import a Claude Desktop config,
// list, turn on or off, remove, test, list tools and set "always allow", answering as the core
// does. Secret values go to the fake keychain (`mcp:SERVER:KIND:NAME`, as the core's accounts)
// and never come back. What a test reports depends on the command, standing in for real
// servers: `no-such-*` is not found (with where it looked), `crash-*` stops during initialize
// with stderr lines; anything else works and offers the tools of the reference "everything"
// server (a few, with their hints), two prompts (one asking for an argument) and a resource.

import type { AddMcpServerRequest, McpImportSkipped, McpPromptView, McpResourceView, McpSandbox, McpServerView, McpTestReport, McpToolView } from "../wire";
import { reply, type Call } from "./call";

const invalid = (message: string) => ({ error: { kind: "invalid_input", message }, hint: null });

const TOOLS: Array<Omit<McpToolView, "model_name" | "always_allow">> = [
  { name: "echo", title: "Echo", description: "Echoes back the input", read_only: true, destructive: null, open_world: false },
  { name: "get-sum", title: null, description: "Returns the sum of two numbers", read_only: true, destructive: null, open_world: null },
  { name: "trigger-long-running-operation", title: null, description: "Demonstrates a long running operation with progress updates", read_only: null, destructive: null, open_world: null },
  { name: "delete-note", title: "Delete a note", description: "Deletes a note for good", read_only: false, destructive: true, open_world: false },
];

const PROMPTS: Array<Omit<McpPromptView, "server">> = [
  { name: "simple-prompt", title: "A simple prompt", description: "A prompt without arguments", arguments: [] },
  {
    name: "weekly-review",
    title: "Weekly review",
    description: "Look back at the week",
    arguments: [{ name: "focus", description: "What to look at", required: true }],
  },
];

const RESOURCES: McpResourceView[] = [
  { uri: "test://static/resource/1", name: "Resource 1", title: null, description: "A plain text resource", mime_type: "text/plain" },
];

function promptText(name: string, args: Record<string, string>): string {
  if (name === "simple-prompt") return "This is a simple prompt without arguments.";
  if (name === "weekly-review") return `Let us review my week, looking at ${args.focus ?? ""}.`;
  throw invalid(`MCP server answered prompts/get of ${name} with an error: unknown prompt`);
}

function permissions(sandbox: McpSandbox, url: string | null): string {
  if (url) return `a remote server at ${url}: it runs elsewhere and sees what its tools are called with`;
  if (sandbox.unconfined) return "UNCONFINED: it runs with all your rights: it can read and change any of your files and use the network";
  const parts = ["sandboxed: it may read its own program's folder and the system's programs and libraries"];
  if (sandbox.read.length) parts.push(`read ${sandbox.read.join(", ")}`);
  if (sandbox.write.length) parts.push(`read and write ${sandbox.write.join(", ")}`);
  parts.push(sandbox.network ? "use the network" : "no network");
  return parts.join("; ");
}

function nameProblem(name: string): string | null {
  const ok = /^[A-Za-z0-9_-]{1,32}$/.test(name) && !name.includes("__") && !name.startsWith("_") && !name.endsWith("_");
  return ok ? null : `${JSON.stringify(name)} cannot name a server: use 1 to 32 letters, digits, \`-\` or single \`_\` (not at the start or end), e.g. "calendar" or "my-notes"`;
}

export function createMcp(keychain: Map<string, string>) {
  const servers = new Map<string, McpServerView>();

  function save(request: AddMcpServerRequest, enabled = true): McpServerView {
    const name = request.name.trim();
    const bad = nameProblem(name);
    if (bad) throw invalid(bad);
    if (servers.has(name)) throw invalid(`an MCP server named ${name} exists already; remove it first (\`vibe mcp rm ${name}\`) or choose another name`);
    if (!request.command === !request.url)
      throw invalid(`server ${name} needs either a command to start (e.g. \`-- npx -y PACKAGE\`) or a URL (\`--url https://...\`), not both and not neither`);
    for (const s of request.env) keychain.set(`mcp:${name}:env:${s.name}`, s.value);
    for (const s of request.headers) keychain.set(`mcp:${name}:header:${s.name}`, s.value);
    const view: McpServerView = {
      name,
      command: request.command,
      args: request.args,
      url: request.url,
      env: request.env.map((s) => s.name),
      headers: request.headers.map((s) => s.name),
      enabled,
      sandbox: request.sandbox,
      always_allow: [],
      permissions: permissions(request.sandbox, request.url),
      missing_secrets: [],
    };
    servers.set(name, view);
    return view;
  }

  function named(name: string): McpServerView {
    const s = servers.get(name);
    if (!s) throw invalid(`no MCP server is named ${JSON.stringify(name)}; \`vibe mcp list\` shows the servers`);
    return s;
  }

  function test(name: string): McpTestReport {
    const s = named(name);
    const base = { server: name, server_name: null, server_version: null, tools: 0 };
    const command = s.command ?? "";
    if (command.startsWith("no-such"))
      return {
        ...base,
        ok: false,
        error: {
          kind: "config",
          message: `the command \`${command}\` was not found; looked in the app's PATH, ~/.local/bin, ~/.npm-global/bin, /usr/local/bin: give its absolute path (\`command -v ${command}\` in a terminal prints it)`,
        },
      };
    if (command.startsWith("crash"))
      return {
        ...base,
        ok: false,
        error: {
          kind: "tool_failed",
          message: `MCP server ${name} stopped (exit status: 1) during initialize\nlast lines of its stderr:\n  Error: Cannot find module '/home/me/servers/notes/index.js'\n  code: 'MODULE_NOT_FOUND'`,
        },
      };
    return { ...base, ok: true, server_name: "mcp-servers/everything", server_version: "2.0.0", tools: TOOLS.length, error: null };
  }

  function importJson(json: string) {
    let doc: unknown;
    try {
      doc = JSON.parse(json);
    } catch (e) {
      throw invalid(`the config is not valid JSON: ${e instanceof Error ? e.message : String(e)}`);
    }
    const entries = (doc as { mcpServers?: Record<string, Record<string, unknown>> }).mcpServers;
    if (!entries || typeof entries !== "object") throw invalid('the config has no "mcpServers" object (Claude Desktop\'s and Cursor\'s shape)');
    const added: McpServerView[] = [];
    const skipped: McpImportSkipped[] = [];
    for (const [name, e] of Object.entries(entries)) {
      if (servers.has(name)) {
        skipped.push({ name, reason: "a server of that name exists already (remove it first to replace it)" });
        continue;
      }
      const pairs = (o: unknown) => Object.entries((o ?? {}) as Record<string, unknown>).map(([n, v]) => ({ name: n, value: String(v) }));
      try {
        const request: AddMcpServerRequest = {
          name,
          command: typeof e.command === "string" ? e.command : null,
          args: Array.isArray(e.args) ? e.args.map(String) : [],
          env: pairs(e.env),
          url: typeof e.url === "string" ? e.url : null,
          headers: pairs(e.headers),
          sandbox: { network: false, read: [], write: [], unconfined: false },
        };
        added.push(save(request, e.disabled !== true));
      } catch (err) {
        skipped.push({ name, reason: (err as { error: { message: string } }).error.message });
      }
    }
    return { added, skipped };
  }

  function handle(call: Call): unknown {
    switch (call.cmd) {
      case "list_mcp_servers":
        return reply(call.cmd, { servers: [...servers.values()].sort((a, b) => a.name.localeCompare(b.name)) });
      case "add_mcp_server":
        return reply(call.cmd, save(call.request));
      case "import_mcp_servers":
        return reply(call.cmd, importJson(call.request.json));
      case "remove_mcp_server": {
        const s = named(call.request.name);
        servers.delete(s.name);
        for (const key of [...keychain.keys()]) if (key.startsWith(`mcp:${s.name}:`)) keychain.delete(key);
        return reply(call.cmd, { name: s.name });
      }
      case "set_mcp_server_enabled": {
        const s = named(call.request.name);
        s.enabled = call.request.enabled;
        return reply(call.cmd, s);
      }
      case "set_mcp_server_grant": {
        const s = named(call.request.name);
        if (s.url) throw invalid(`server ${s.name} is reached at a URL, so it runs elsewhere: sandbox settings do not apply to it`);
        s.sandbox = call.request.sandbox;
        s.permissions = permissions(s.sandbox, s.url);
        return reply(call.cmd, s);
      }
      case "set_mcp_tool_always_allow": {
        const s = named(call.request.server);
        s.always_allow = s.always_allow.filter((t) => t !== call.request.tool);
        if (call.request.always_allow) s.always_allow.push(call.request.tool);
        return reply(call.cmd, s);
      }
      case "test_mcp_server":
        return new Promise((resolve) => setTimeout(() => resolve(reply(call.cmd, test(call.request.name))), 150));
      case "mcp_server_tools": {
        const s = named(call.request.name);
        const report = test(s.name);
        if (!report.ok) throw { error: report.error, hint: null };
        const tools = TOOLS.map((t) => ({ ...t, model_name: `mcp__${s.name}__${t.name}`, always_allow: s.always_allow.includes(t.name) }));
        return reply(call.cmd, { server: s.name, tools });
      }
      case "mcp_prompts": {
        const prompts: McpPromptView[] = [];
        const unavailable: string[] = [];
        for (const s of [...servers.values()].filter((v) => v.enabled).sort((a, b) => a.name.localeCompare(b.name))) {
          const report = test(s.name);
          if (report.ok) prompts.push(...PROMPTS.map((p) => ({ ...p, server: s.name })));
          else unavailable.push(`${s.name}: ${report.error?.message ?? ""}`);
        }
        return reply(call.cmd, { prompts, unavailable });
      }
      case "get_mcp_prompt": {
        const s = named(call.request.server);
        return reply(call.cmd, { server: s.name, text: promptText(call.request.name, call.request.arguments) });
      }
      case "mcp_server_resources": {
        const s = named(call.request.name);
        const report = test(s.name);
        if (!report.ok) throw { error: report.error, hint: null };
        return reply(call.cmd, { server: s.name, resources: RESOURCES });
      }
      case "read_mcp_resource": {
        const s = named(call.request.server);
        return reply(call.cmd, { server: s.name, text: "Resource 1: This is a plaintext resource" });
      }
      default:
        return undefined;
    }
  }
  return { handle, servers };
}
