// A misbehaving MCP server for the whole-turn tests (never shipped): speaks MCP over stdio, one
// JSON-RPC message a line, with plain Node (no packages). Its first argument says how it
// misbehaves; every mode has `echo`, which works until the misbehaving tool is called:
//   crash    `boom` writes two stderr lines and exits with code 3 in the middle of the call
//   hang     `wait` never answers
//   garbage  `log` answers with a line that is not JSON-RPC (a log line on stdout)
//   tools500 lists 500 tools in pages of 100 (tools/list's cursor)
//   huge     `dump` answers 2 MiB of text
//   grows    `add_tool` adds the tool `added` and sends notifications/tools/list_changed
//   ok       declares prompts (prompts/list, prompts/get) and resources (resources/list,
//            resources/read); the other modes declare neither
import { createInterface } from "node:readline";

const mode = process.argv[2] ?? "ok";
const send = (msg) => process.stdout.write(JSON.stringify({ jsonrpc: "2.0", ...msg }) + "\n");
const tool = (name, description) => ({
  name,
  description,
  inputSchema: { type: "object", properties: { text: { type: "string" } } },
});
const text = (t) => ({ content: [{ type: "text", text: t }], isError: false });

const tools = [tool("echo", "Says the text back")];
const extra = { crash: "boom", hang: "wait", garbage: "log", huge: "dump", grows: "add_tool" }[mode];
if (extra) tools.push(tool(extra, `Misbehaves (${mode})`));

const prompts = [
  {
    name: "weekly_review",
    title: "Weekly review",
    description: "Look back at the week with the coach",
    arguments: [{ name: "focus", description: "What to look at", required: false }],
  },
];
const resources = [
  { uri: "notes://today", name: "today.md", title: "Today's notes", mimeType: "text/markdown" },
];

function listTools(params) {
  if (mode !== "tools500") return { tools };
  const start = Number(params?.cursor ?? 0);
  const page = [];
  for (let i = start; i < start + 100; i++) page.push(tool(`tool_${i}`, "one of many"));
  return start + 100 < 500 ? { tools: page, nextCursor: String(start + 100) } : { tools: page };
}

function call(id, params) {
  const name = params?.name;
  const args = params?.arguments ?? {};
  switch (name) {
    case "echo":
      return send({ id, result: text(`echo: ${args.text ?? ""}`) });
    case "boom":
      process.stderr.write("working on boom\nfatal: the index file is corrupt\n");
      return process.exit(3);
    case "wait":
      return; // never answers
    case "log":
      return process.stdout.write("Server listening on port 3000 (a log line on stdout)\n");
    case "dump":
      return send({ id, result: text("x".repeat(2 << 20)) });
    case "add_tool":
      if (!tools.some((t) => t.name === "added")) tools.push(tool("added", "Added while running"));
      // The news first, as a server does when the change happens before it answers.
      send({ method: "notifications/tools/list_changed" });
      return send({ id, result: text("added the tool `added`") });
    case "added":
      if (tools.some((t) => t.name === "added")) return send({ id, result: text("the added tool works") });
    // falls through: not added yet
    default:
      return send({ id, error: { code: -32602, message: `no tool ${name}` } });
  }
}

const lines = createInterface({ input: process.stdin });
lines.on("line", (line) => {
  let msg;
  try {
    msg = JSON.parse(line);
  } catch {
    return;
  }
  const { id, method, params } = msg;
  if (id === undefined || id === null) return; // a notification
  switch (method) {
    case "initialize":
      return send({
        id,
        result: {
          protocolVersion: params?.protocolVersion ?? "2025-06-18",
          capabilities: {
            tools: { listChanged: true },
            ...(mode === "ok" ? { prompts: {}, resources: {} } : {}),
          },
          serverInfo: { name: `misbehaving-${mode}`, version: "1.0.0" },
        },
      });
    case "tools/list":
      return send({ id, result: listTools(params) });
    case "tools/call":
      return call(id, params);
    case "prompts/list":
      return send({ id, result: { prompts } });
    case "prompts/get": {
      const focus = params?.arguments?.focus ?? "the whole week";
      const message = `Let us review my week, looking at ${focus}.`;
      const messages = [{ role: "user", content: { type: "text", text: message } }];
      return send({ id, result: { description: prompts[0].description, messages } });
    }
    case "resources/list":
      return send({ id, result: { resources } });
    case "resources/read":
      return send({
        id,
        result: { contents: [{ uri: params?.uri, mimeType: "text/markdown", text: "# Today\n- walk" }] },
      });
    case "ping":
      return send({ id, result: {} });
    default:
      return send({ id, error: { code: -32601, message: "method not found" } });
  }
});
