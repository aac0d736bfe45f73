// The add-a-connection form as data: its fields, the `add_mcp_server` request they make, and
// the first problem that stops them (named by field and an i18n key under `connections.form`),
// checked here so the person learns it before anything is sent; the core checks again and has
// the last word. No rendering and no commands here.

import type { AddMcpServerRequest, McpSandbox, McpSecret } from "../../wire";

export type Transport = "stdio" | "http";

/** A name and its value (an environment variable or an HTTP header): the value is secret. */
export interface Pair {
  name: string;
  value: string;
}

export interface ServerForm {
  name: string;
  transport: Transport;
  command: string;
  /** One argument per line (spaces inside an argument stay). */
  args: string;
  env: Pair[];
  url: string;
  headers: Pair[];
  network: boolean;
  /** Folders, one per line. */
  read: string;
  write: string;
  unconfined: boolean;
}

export const emptyForm = (): ServerForm => ({
  name: "",
  transport: "stdio",
  command: "",
  args: "",
  env: [],
  url: "",
  headers: [],
  network: false,
  read: "",
  write: "",
  unconfined: false,
});

export type FormField = "name" | "command" | "url" | "env" | "headers" | "read" | "write";

/** The messages of form problems (`connections.form.KEY`). */
export type FormProblemKey =
  | "nameMissing"
  | "nameBad"
  | "commandMissing"
  | "urlMissing"
  | "urlBad"
  | "envNameBad"
  | "headerNameBad"
  | "valueMissing"
  | "nameTwice"
  | "folderRelative";

/** What stops the form: the field, the message key (`connections.form.KEY`) and its values. */
export interface FormProblem {
  field: FormField;
  key: FormProblemKey;
  values?: Record<string, string>;
}

export type FormResult = { request: AddMcpServerRequest } | { problem: FormProblem };

const MAX_NAME = 32;
/** As vibe-mcp's `check_server_name`: letters, digits, `-`, single `_`, not `_` at either end. */
export function nameProblem(name: string): FormProblemKey | null {
  if (!name) return "nameMissing";
  if (name.length > MAX_NAME || !/^[A-Za-z0-9_-]+$/.test(name) || name.includes("__") || name.startsWith("_") || name.endsWith("_")) return "nameBad";
  return null;
}

const lines = (text: string) =>
  text
    .split("\n")
    .map((l) => l.trim())
    .filter((l) => l.length > 0);

const ENV_NAME = /^[^=\0]+$/;
const HEADER_NAME = /^[A-Za-z0-9_-]+$/;

function pairs(rows: Pair[], field: "env" | "headers"): McpSecret[] | FormProblem {
  const out: McpSecret[] = [];
  for (const row of rows) {
    const name = row.name.trim();
    if (!name && !row.value) continue;
    const ok = field === "env" ? ENV_NAME.test(name) : HEADER_NAME.test(name);
    if (!ok) return { field, key: field === "env" ? "envNameBad" : "headerNameBad", values: { name } };
    if (!row.value) return { field, key: "valueMissing", values: { name } };
    if (out.some((p) => p.name === name)) return { field, key: "nameTwice", values: { name } };
    out.push({ name, value: row.value });
  }
  return out;
}

const isProblem = (v: unknown): v is FormProblem => !!v && typeof v === "object" && "field" in v;

function folders(text: string, field: "read" | "write"): string[] | FormProblem {
  const dirs = lines(text);
  const relative = dirs.find((d) => !d.startsWith("/") && !/^[A-Za-z]:[\\/]/.test(d));
  return relative === undefined ? dirs : { field, key: "folderRelative", values: { dir: relative } };
}

/** The request the form makes, or the first thing to fix. */
export function requestFromForm(form: ServerForm): FormResult {
  const name = form.name.trim();
  const bad = nameProblem(name);
  if (bad) return { problem: { field: "name", key: bad, values: { name } } };
  if (form.transport === "http") {
    const url = form.url.trim();
    if (!url) return { problem: { field: "url", key: "urlMissing" } };
    if (!/^https?:\/\/[^\s/]+/.test(url)) return { problem: { field: "url", key: "urlBad", values: { url } } };
    const headers = pairs(form.headers, "headers");
    if (isProblem(headers)) return { problem: headers };
    const sandbox: McpSandbox = { network: false, read: [], write: [], unconfined: false };
    return { request: { name, command: null, args: [], env: [], url, headers, sandbox } };
  }
  const command = form.command.trim();
  if (!command) return { problem: { field: "command", key: "commandMissing" } };
  const env = pairs(form.env, "env");
  if (isProblem(env)) return { problem: env };
  const read = folders(form.read, "read");
  if (isProblem(read)) return { problem: read };
  const write = folders(form.write, "write");
  if (isProblem(write)) return { problem: write };
  return { request: { name, command, args: lines(form.args), env, url: null, headers: [], sandbox: sandboxOf(form, read, write) } };
}

/** Unconfined grants everything: the folder and network grants would only mislead. */
function sandboxOf(grant: GrantForm, read: string[], write: string[]): McpSandbox {
  return grant.unconfined ? { network: false, read: [], write: [], unconfined: true } : { network: grant.network, read, write, unconfined: false };
}

/** What a program may touch, as the form holds it (folders one per line). */
export type GrantForm = Pick<ServerForm, "network" | "read" | "write" | "unconfined">;

/** A server's grant as form fields, to change it. */
export const grantForm = (sandbox: McpSandbox): GrantForm => ({
  network: sandbox.network,
  read: sandbox.read.join("\n"),
  write: sandbox.write.join("\n"),
  unconfined: sandbox.unconfined,
});

/** The grant the fields make, or the first folder to fix. */
export function sandboxFromGrant(grant: GrantForm): { sandbox: McpSandbox } | { problem: FormProblem } {
  const read = folders(grant.read, "read");
  if (isProblem(read)) return { problem: read };
  const write = folders(grant.write, "write");
  if (isProblem(write)) return { problem: write };
  return { sandbox: sandboxOf(grant, read, write) };
}

/** What the fields would allow, for the plain-word preview while they are edited. */
export const previewOf = (grant: GrantForm): McpSandbox => sandboxOf(grant, lines(grant.read), lines(grant.write));
