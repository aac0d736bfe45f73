import { describe, expect, it } from "vitest";
import { emptyForm, grantForm, previewOf, requestFromForm, sandboxFromGrant, type ServerForm } from "./form";
import { checkPasted } from "./paste";
import { permissionLines } from "./permissions";
import { splitFailure, statusFromReport } from "./status";

const form = (patch: Partial<ServerForm>): ServerForm => ({ ...emptyForm(), name: "notes", command: "npx", ...patch });

describe("the add form makes the add_mcp_server request", () => {
  it("a stdio server: one argument per line, secrets as name and value, the grant", () => {
    const r = requestFromForm(
      form({ args: "-y\n@me/notes server\n\n", env: [{ name: "NOTES_TOKEN", value: "t-1" }, { name: "", value: "" }], network: true, read: "/home/a/Notes\n", write: "/tmp/out" }),
    );
    expect(r).toEqual({
      request: {
        name: "notes",
        command: "npx",
        args: ["-y", "@me/notes server"],
        env: [{ name: "NOTES_TOKEN", value: "t-1" }],
        url: null,
        headers: [],
        sandbox: { network: true, read: ["/home/a/Notes"], write: ["/tmp/out"], unconfined: false },
      },
    });
  });

  it("unconfined drops the grants it makes meaningless", () => {
    const r = requestFromForm(form({ network: true, read: "/x", unconfined: true }));
    expect("request" in r && r.request.sandbox).toEqual({ network: false, read: [], write: [], unconfined: true });
  });

  it("a URL server sends no command and no sandbox grant", () => {
    const r = requestFromForm(form({ transport: "http", url: " https://mcp.example/mcp ", headers: [{ name: "Authorization", value: "Bearer x" }], network: true }));
    expect(r).toEqual({
      request: {
        name: "notes",
        command: null,
        args: [],
        env: [],
        url: "https://mcp.example/mcp",
        headers: [{ name: "Authorization", value: "Bearer x" }],
        sandbox: { network: false, read: [], write: [], unconfined: false },
      },
    });
  });

  it.each([
    [{ name: "" }, "name", "nameMissing"],
    [{ name: "my notes" }, "name", "nameBad"],
    [{ name: "a__b" }, "name", "nameBad"],
    [{ name: "_a" }, "name", "nameBad"],
    [{ name: "x".repeat(33) }, "name", "nameBad"],
    [{ command: "  " }, "command", "commandMissing"],
    [{ env: [{ name: "A=B", value: "1" }] }, "env", "envNameBad"],
    [{ env: [{ name: "TOKEN", value: "" }] }, "env", "valueMissing"],
    [{ env: [{ name: "T", value: "1" }, { name: "T", value: "2" }] }, "env", "nameTwice"],
    [{ read: "Notes" }, "read", "folderRelative"],
    [{ write: "/ok\n./out" }, "write", "folderRelative"],
    [{ transport: "http" as const, url: "" }, "url", "urlMissing"],
    [{ transport: "http" as const, url: "ftp://h/x" }, "url", "urlBad"],
    [{ transport: "http" as const, url: "https://h/mcp", headers: [{ name: "Bad Header", value: "v" }] }, "headers", "headerNameBad"],
  ])("%o is refused at %s with %s", (patch, field, key) => {
    const r = requestFromForm(form(patch));
    expect("problem" in r && r.problem.field).toBe(field);
    expect("problem" in r && r.problem.key).toBe(key);
  });

  it("the problem names what is wrong", () => {
    expect(requestFromForm(form({ read: "Notes" }))).toEqual({ problem: { field: "read", key: "folderRelative", values: { dir: "Notes" } } });
  });
});

describe("pasted JSON is checked with specific errors", () => {
  it("a Claude Desktop config names its servers", () => {
    const text = JSON.stringify({ mcpServers: { notes: { command: "npx", args: ["-y", "n"], env: { T: "1" } }, web: { url: "https://h/mcp" } } });
    expect(checkPasted(text)).toEqual({ json: text, names: ["notes", "web"] });
  });
  it("not JSON says where", () => {
    const r = checkPasted('{\n  "mcpServers": {\n    "a": {"command": "x",}\n  }\n}');
    expect("problem" in r && r.problem.key).toBe("pasteNotJsonAt");
    expect("problem" in r && r.problem.values?.line).toBe("3");
  });
  it.each([
    ["", "pasteEmpty"],
    ["[1, 2]", "pasteNoServers"],
    ['{"servers_list": {}}', "pasteNoServers"],
    ['{"mcpServers": {}}', "pasteNoServers"],
    ['{"mcpServers": {"a": 3}}', "pasteEntryNotObject"],
    ['{"mcpServers": {"a": {"args": ["x"]}}}', "pasteEntryEmpty"],
    ['{"mcpServers": {"a": {"command": "x", "env": ["T=1"]}}}', "pasteEntryField"],
  ])("%j is refused with %s", (text, key) => {
    const r = checkPasted(text);
    expect("problem" in r && r.problem.key).toBe(key);
  });
});

describe("permissions in plain words", () => {
  const none = { network: false, read: [], write: [], unconfined: false };
  it("a sandboxed server with nothing granted", () => {
    expect(permissionLines(none, null).map((l) => l.key)).toEqual(["sandboxed", "noNetwork", "readsNothing", "writesNothing"]);
  });
  it("grants are listed, the network warned", () => {
    const lines = permissionLines({ ...none, network: true, read: ["/a", "/b"], write: ["/c"] }, null);
    expect(lines).toContainEqual({ key: "network", warn: true });
    expect(lines).toContainEqual({ key: "reads", values: { dirs: "/a, /b" } });
    expect(lines).toContainEqual({ key: "writes", values: { dirs: "/c" } });
  });
  it("unconfined is one warned line; a remote server says where it runs", () => {
    expect(permissionLines({ ...none, unconfined: true }, null)).toEqual([{ key: "unconfined", warn: true }]);
    expect(permissionLines(none, "https://h/mcp")).toEqual([{ key: "remote", values: { url: "https://h/mcp" } }]);
  });
});

describe("status from a test", () => {
  it("a failure keeps the reason and the stderr lines apart", () => {
    const message = "MCP server ghost stopped (exit status: 1) during initialize\nlast lines of its stderr:\n  Error: cannot find module\n  at node:internal";
    expect(splitFailure(message)).toEqual({ reason: "MCP server ghost stopped (exit status: 1) during initialize", stderr: ["Error: cannot find module", "at node:internal"] });
    expect(splitFailure("the command `npx` was not found")).toEqual({ reason: "the command `npx` was not found", stderr: [] });
  });
  it("a working server is connected with its tools", () => {
    const s = statusFromReport({ server: "e", ok: true, server_name: "everything", server_version: "1.0", tools: 11, error: null });
    expect(s).toEqual({ kind: "connected", tools: 11, serverName: "everything", version: "1.0" });
  });
});

describe("a server's permissions, changed", () => {
  it("the grant as fields and back: folders one per line, unchanged when nothing was edited", () => {
    const sandbox = { network: true, read: ["/home/a/Notes", "/srv/x"], write: ["/tmp/out"], unconfined: false };
    const g = grantForm(sandbox);
    expect(g).toEqual({ network: true, read: "/home/a/Notes\n/srv/x", write: "/tmp/out", unconfined: false });
    expect(sandboxFromGrant(g)).toEqual({ sandbox });
  });

  it("a relative folder is said at its field; unconfined drops the other grants", () => {
    expect(sandboxFromGrant({ network: false, read: "", write: "/ok\nNotes", unconfined: false })).toEqual({
      problem: { field: "write", key: "folderRelative", values: { dir: "Notes" } },
    });
    expect(sandboxFromGrant({ network: true, read: "/a", write: "/b", unconfined: true })).toEqual({
      sandbox: { network: false, read: [], write: [], unconfined: true },
    });
    expect(previewOf({ network: true, read: " /a \n\n", write: "", unconfined: false })).toEqual({ network: true, read: ["/a"], write: [], unconfined: false });
  });
});
