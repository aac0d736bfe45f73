// The one module that talks to the Tauri shell: a typed function per command, each through
// `call` / `stream`, whose command names, requests and responses are checked against the
// generated command list (../wire/Commands.ts, from crates/wire/src/command/list.rs).
// Components import from here and never call `invoke` themselves, so browser tests replace the
// backend by mocking the IPC under this module. Every command takes its request as `request`;
// a failure arrives as a `CommandError` (an `ErrorInfo` and, when a fix exists, a `Hint`).

import { getVersion } from "@tauri-apps/api/app";
import { Channel, invoke } from "@tauri-apps/api/core";
import type {
  Commands,
  CommandError,
  Envelope,
  ErrorInfo,
  JsonValue,
  ReportFormatKind,
  SettingChange,
  StreamingCommand,
  TurnInput,
  UnlockDatabaseRequest,
} from "../wire";
export type * from "./types";
/** Stored data changed by a coach's tool during a turn: announced by the chat, read by screens. */
export * as stateChanges from "./stateChanges";

function isErrorInfo(v: unknown): v is ErrorInfo {
  return !!v && typeof v === "object" && "kind" in v && "message" in v;
}

/** Whatever a command rejected with, as a `CommandError`. */
export function toCommandError(e: unknown): CommandError {
  if (e && typeof e === "object" && "error" in e && isErrorInfo((e as CommandError).error)) return e as CommandError;
  if (isErrorInfo(e)) return { error: { kind: e.kind, message: String(e.message) }, hint: null };
  return { error: { kind: "internal", message: e instanceof Error ? e.message : String(e) }, hint: null };
}

/** Whatever a command rejected with, as an `ErrorInfo`. */
export const toErrorInfo = (e: unknown): ErrorInfo => toCommandError(e).error;

/** A command's name, request and response, from the generated wire list (../wire/Commands.ts). */
export type CommandName = keyof Commands;
export type RequestOf<K extends CommandName> = Commands[K][0];
export type ResponseOf<K extends CommandName> = Commands[K][1];
/** The request argument of a command: none when it takes no request. */
type RequestArg<K extends CommandName> = [RequestOf<K>] extends [void] ? [] : [request: RequestOf<K>];

async function invokeCommand<K extends CommandName>(cmd: K, args?: Record<string, unknown>): Promise<ResponseOf<K>> {
  try {
    return await invoke<ResponseOf<K>>(cmd, args);
  } catch (e) {
    throw toCommandError(e);
  }
}

/** Calls a command of the wire list; its request and response are checked against the list. */
export function call<K extends Exclude<CommandName, StreamingCommand>>(cmd: K, ...request: RequestArg<K>): Promise<ResponseOf<K>> {
  return invokeCommand(cmd, request.length > 0 ? { request: request[0] } : undefined);
}

/** Calls a streaming command: its events arrive through `onEvent` until it resolves. */
export function stream<K extends StreamingCommand>(
  cmd: K,
  onEvent: (e: Envelope) => void,
  ...request: RequestArg<K>
): Promise<ResponseOf<K>> {
  const onEventChannel = new Channel<Envelope>(onEvent);
  return invokeCommand(cmd, request.length > 0 ? { request: request[0], onEvent: onEventChannel } : { onEvent: onEventChannel });
}

/** One turn: a new message (`{type: "say"}`) or the last one again (`{type: "retry"}`). Every
 * event of its run arrives through `onEvent`; resolves when the run has ended. */
export function sendMessage(
  conversationId: string | null,
  input: TurnInput,
  onEvent: (e: Envelope) => void,
  runId: string | null = null,
): Promise<ResponseOf<"send_message">> {
  const request = { conversation_id: conversationId, input, skill: null, scenario: null, voice_mode: null, run_id: runId };
  return stream("send_message", onEvent, request);
}

export const cancelRun = (runId: string) => call("cancel_run", { run_id: runId });

export const resolveApproval = (requestId: string, approved: boolean, always = false) =>
  call("resolve_approval", { request_id: requestId, approved, always });

export const conversations = {
  list: () => call("list_conversations").then((l) => l.conversations),
  get: (id: string) => call("get_conversation", { id }),
  rename: (id: string, title: string) => call("rename_conversation", { id, title }),
  remove: (id: string) => call("delete_conversation", { id }),
  search: (query: string) =>
    call("search_conversations", { query }).then((l) => l.conversations),
};

export const settings = {
  get: () => call("get_settings"),
  /** Validated together by the core; on an error nothing is written. */
  update: (changes: SettingChange[]) => call("update_settings", { changes }),
};

/** The key goes to the OS keychain; the webview can only learn whether one is stored. */
export const apiKey = {
  set: (baseUrl: string, key: string) => call("set_api_key", { base_url: baseUrl, key }),
  clear: (baseUrl: string) => call("clear_api_key", { base_url: baseUrl }),
  status: (baseUrl: string) => call("api_key_status", { base_url: baseUrl }),
};

export const testConnection = (baseUrl: string, model: string) =>
  call("test_connection", { base_url: baseUrl, model: model || null });

export const listModels = (baseUrl: string) =>
  call("list_models", { base_url: baseUrl }).then((l) => l.models.map((m) => m.id));

/** Opens the data folder in the system's file manager. */
export const openDataDir = () => call("open_data_dir");

/** Whether no model is configured yet (no settings file and no `VIBE_LLM_BASE_URL`). */
export const needsFirstRun = () => call("needs_first_run");

/** Open the locked data folder: its passphrase, or (a new folder only) no encryption. */
export const unlockDatabase = (request: UnlockDatabaseRequest) =>
  call("unlock_database", request);

/** A backup file of the open data folder (`out`, or a new file in its `backups/`), and an export of
 * everything as JSON and Markdown into a new or empty folder (docs/privacy.md). */
export const data = {
  backup: (out: string | null = null) => call("create_backup", { out }),
  exportAll: (out: string) => call("export_all", { out }),
};

/** Local model servers answering on their default ports (probed by the core, not the webview). */
export const detectLocalServers = () => call("detect_local_servers");

/** Points the settings at a detected server and one of its models. */
export const useLocalServer = (preset: string, baseUrl: string, model: string) =>
  settings.update([
    { key: "llm.preset", value: preset },
    { key: "llm.base_url", value: baseUrl },
    { key: "llm.model", value: model || null },
  ]);

/** Models run on this computer (docs/models.md): the catalogue, downloads, files added by path. */
export const localModels = {
  /** The catalogue, what is installed, and the free disk space. */
  list: () => call("list_local_models"),
  /** Downloads (or resumes) a catalogue model; `model_download_*` events arrive through
   * `onEvent`; resolves once it is verified and in place. */
  pull: (id: string, onEvent: (e: Envelope) => void) =>
    stream("pull_model", onEvent, { id }),
  /** Stops a download; its partial file is kept, so pulling again resumes. */
  cancel: (id: string) => call("cancel_model_download", { id }),
  remove: (id: string) => call("remove_model", { id }),
  /** Selects the `local` preset with this installed model. */
  use: (id: string) => call("use_model", { id }),
  /** The shell asks for a .gguf file (system dialog) and copies it in; null: the dialog was closed. */
  addFile: () => call("add_model_file"),
};

/** The app's version, from Tauri's app API (the one core API the window is allowed). */
export const appVersion = () => getVersion();

/** Tells the shell the composer is interactive (it logs the launch time). */
export const uiReady = () => call("ui_ready");

/** The window and the app beside the desktop (the shell's tray; docs/ui.md, "Tray"). */
export const desktop = {
  /** Closes the window as `preferences.on_close` now says: to the tray, or quitting. */
  closeWindow: () => call("close_window"),
  /** Whether VibeLife starts at login (minimised to the tray). */
  autostart: () => call("autostart_status"),
  setAutostart: (enabled: boolean) => call("set_autostart", { enabled }),
};

/** App updates (docs/packaging.md#updates): the shell asks the update server only when the
 * person allowed it (`preferences.updates`), at most daily unless `manual`. */
export const updates = {
  check: (manual: boolean) => call("update_check", { manual }),
  /** Downloads, verifies and installs the update the last check found. */
  install: () => call("update_install"),
};

/** Where the shell wrote a file the person chose in the save dialog (`path` null: closed). */
export type { Saved } from "../wire";

export const protocols = {
  list: () => call("list_protocols").then((l) => l.protocols),
  /** Most recently active first. */
  runs: () => call("list_protocol_runs", { skill: null }).then((l) => l.runs),
  get: (runId: string) => call("get_protocol_run", { run_id: runId }),
  /** The structured answer to an invitation: the run starts (its events come back with it). */
  start: (id: string, skill: string | null) => call("start_protocol", { id, skill }),
  later: (id: string, skill: string | null) => call("later_protocol", { id, skill }),
  resume: (runId: string) => call("resume_protocol", { run_id: runId }),
  cancel: (runId: string, reason: string | null = null) =>
    call("cancel_protocol", { run_id: runId, reason }),
  /** The core renders the report; the shell asks where to save it (native dialog) and writes it. */
  exportReport: (runId: string, format: ReportFormatKind) =>
    call("export_protocol_report", { run_id: runId, format }),
};

export const reminders = {
  /** The reminders the app notified that are still open (per run the latest due one, not answered). */
  notices: () => call("reminder_notices").then((l) => l.reminders),
};

/** A screen's plain object as the JSON value a request carries (screens hold parsed JSON). */
const json = (v: unknown) => v as JsonValue;

export const profile = {
  get: () => call("get_profile").then((p) => p.profile),
  /** One dotted path; a `birth_info` change is checked (place looked up) before it is stored. */
  set: (path: string, value: unknown) => call("set_profile_path", { path, value: json(value) }).then((p) => p.profile),
  /** Like `set`, answering also the place a `birth_info` write looked up and a zone warning. */
  setChecked: (path: string, value: unknown) => call("set_profile_path", { path, value: json(value) }),
  /** What a typed birth place resolves to: one place (confirm it), several (let the person pick) or none. */
  lookupPlace: (query: string, timezone: string | null, date: string | null) =>
    call("lookup_place", { query, timezone, date }),
  chart: (skill: string, force = false) => call("compute_chart", { skill, force }),
  state: (skill: string) => call("skill_state", { skill, section: null }).then((v) => v.state),
  /** Deep-merges `data` into one section of a skill's state (null removes a key). */
  writeState: (skill: string, section: string, data: unknown) =>
    call("write_state", { skill, section, data: json(data) }),
  /** Replaces entry `index` (newest first) of a list, which must still have `createdAt`. */
  editEntry: (skill: string, path: string, index: number, createdAt: string, entry: unknown) =>
    call("edit_state_entry", { skill, path, index, created_at: createdAt, entry: json(entry) }),
};

export const memory = {
  list: () => call("list_memory", { kind: null }),
  edit: (id: string, text: string) => call("edit_memory_item", { id, text }),
  forget: (id: string) => call("forget_memory_item", { id }),
  setEnabled: (on: boolean) => call("set_memory_enabled", { on }),
  /** Every item as one JSON document, saved where the person chooses (native dialog). */
  exportToFile: () => call("save_memory_export"),
};

export const skills = {
  list: () => call("list_skills"),
  show: (name: string) => call("show_skill", { name }),
  check: () => call("check_skills", { dirs: [] }),
  reload: () => call("reload_skills"),
  create: (name: string) => call("new_skill", { name }),
  openFolder: () => call("open_skills_dir"),
  /** From now on the registry's `skills_changed` notices (its file watcher) arrive through
   * `onEvent`; a later call replaces the earlier channel. */
  watch: (onEvent: (e: Envelope) => void) => stream("watch_skills", onEvent),
};

/** The Today screen's day (the core's local day unless `date` is given), in `lang`. */
export const today = (lang: string | null, date: string | null = null) => call("today", { lang, date });

/** What a new conversation offers to say first, from the skills that declare starters. */
export const conversationStarters = (lang: string | null) =>
  call("conversation_starters", { lang }).then((l) => l.starters);

/** The enabled connections' prompts (MCP `prompts/list`), offered beside the starters. */
export const mcpPrompts = () => call("mcp_prompts");

/** A connection's prompt as text for the composer (MCP `prompts/get`). */
export const getMcpPrompt = (server: string, name: string, args: Record<string, string>) =>
  call("get_mcp_prompt", { server, name, arguments: args }).then((t) => t.text);

/** The journal the person writes (entries in the life coach's state; the core validates). */
export const journal = {
  /** Newest first; `query` matches text, feelings and tags. */
  list: (query: string | null = null, limit: number | null = null) =>
    call("journal_list", { query, since: null, until: null, limit }).then((l) => l.entries),
  checkin: (mood: number, feelings: string[], note: string | null, date: string | null = null) =>
    call("checkin", { mood, feelings, note, date }),
  add: (request: RequestOf<"journal_add">) => call("journal_add", request),
  edit: (request: RequestOf<"journal_edit">) => call("journal_edit", request),
  /** Undoable from the state history. */
  remove: (id: string) => call("journal_remove", { id }),
};

/** Insights: the series of a range (mood, calendar, feelings, protocols, goals) and the week. */
export const insights = (request: RequestOf<"insights">) => call("insights", request);
/** The week in the coach's words: the configured model, from the week's figures only. */
export const insightsWeekWords = (request: RequestOf<"insights_week_words">) => call("insights_week_words", request);
