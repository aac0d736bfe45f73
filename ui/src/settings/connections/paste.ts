// Pasted JSON in Claude Desktop's `mcpServers` shape, checked before it is sent to
// `import_mcp_servers`: a specific problem (not JSON and where, no `mcpServers` object, an
// entry that is not an object or has neither a command nor a URL) or the servers it names.
// The core reads the same text again and decides; no commands here.

/** The messages of paste problems (`connections.form.KEY`). */
export type PasteProblemKey = "pasteEmpty" | "pasteNotJson" | "pasteNotJsonAt" | "pasteNoServers" | "pasteEntryNotObject" | "pasteEntryEmpty" | "pasteEntryField";

export type PasteResult = { json: string; names: string[] } | { problem: { key: PasteProblemKey; values?: Record<string, string> } };

/** Line and column of a `JSON.parse` error, when the engine says where. */
function whereIn(text: string, message: string): { line: string; column: string } | null {
  const lc = /line (\d+) column (\d+)/.exec(message);
  if (lc?.[1] && lc[2]) return { line: lc[1], column: lc[2] };
  const pos = /position (\d+)/.exec(message);
  if (!pos?.[1]) return null;
  const before = text.slice(0, Number(pos[1])).split("\n");
  return { line: String(before.length), column: String((before.at(-1)?.length ?? 0) + 1) };
}

const isObject = (v: unknown): v is Record<string, unknown> => !!v && typeof v === "object" && !Array.isArray(v);

export function checkPasted(text: string): PasteResult {
  if (!text.trim()) return { problem: { key: "pasteEmpty" } };
  let doc: unknown;
  try {
    doc = JSON.parse(text);
  } catch (e) {
    const where = whereIn(text, e instanceof Error ? e.message : "");
    return where ? { problem: { key: "pasteNotJsonAt", values: where } } : { problem: { key: "pasteNotJson" } };
  }
  const servers = isObject(doc) ? (doc.mcpServers ?? doc.servers) : undefined;
  if (!isObject(servers)) return { problem: { key: "pasteNoServers" } };
  const names = Object.keys(servers);
  if (names.length === 0) return { problem: { key: "pasteNoServers" } };
  for (const name of names) {
    const entry = servers[name];
    if (!isObject(entry)) return { problem: { key: "pasteEntryNotObject", values: { name } } };
    const hasCommand = typeof entry.command === "string" && entry.command.trim() !== "";
    const hasUrl = typeof entry.url === "string" || typeof entry.serverUrl === "string";
    if (!hasCommand && !hasUrl) return { problem: { key: "pasteEntryEmpty", values: { name } } };
    for (const k of ["env", "headers"]) if (k in entry && !isObject(entry[k])) return { problem: { key: "pasteEntryField", values: { name, field: k } } };
  }
  return { json: text, names };
}
