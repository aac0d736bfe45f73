// The one module that talks to the Tauri shell: a typed function per command, with the wire
// crate's generated request and response types (../wire). Components import from here and
// never call `invoke` themselves, so browser tests replace the backend by mocking the IPC
// under this module. Every command takes its request as `request`; a failure arrives as a
// `CommandError` (an `ErrorInfo` and, when a fix exists, a `Hint`).

import { getVersion } from "@tauri-apps/api/app";
import { Channel, invoke } from "@tauri-apps/api/core";
import type {
  ApiKeyStatus,
  BackupCreated,
  CancelRunResponse,
  ChartView,
  CommandError,
  ConversationDetail,
  ConversationList,
  ConversationSummary,
  DeleteConversationResponse,
  Envelope,
  ErrorInfo,
  ExportAllResponse,
  ForgetMemoryResponse,
  InstalledModelView,
  LocalModels,
  LocalServerView,
  MemoryItemView,
  MemoryList,
  MemorySwitch,
  ModelDownloadCancelled,
  ModelInUse,
  ModelList,
  ModelPulled,
  ModelRemoved,
  NewSkillResponse,
  PlaceLookup,
  ProfileSet,
  ProfileView,
  ProtocolLater,
  ProtocolList,
  ProtocolRunChange,
  ProtocolRunList,
  ProtocolRunView,
  ReminderList,
  ReportFormatKind,
  ResolveApprovalResponse,
  SendMessageResponse,
  SettingChange,
  SettingsView,
  SkillCheckReport,
  SkillDetail,
  SkillList,
  SkillsReloaded,
  SkillStateView,
  StateEntryEdited,
  StateWritten,
  TestConnectionResponse,
  TurnInput,
  UnlockDatabaseRequest,
  UnlockDatabaseResponse,
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

async function call<T>(cmd: string, args?: Record<string, unknown>): Promise<T> {
  try {
    return await invoke<T>(cmd, args);
  } catch (e) {
    throw toCommandError(e);
  }
}

/** One turn: a new message (`{type: "say"}`) or the last one again (`{type: "retry"}`). Every
 * event of its run arrives through `onEvent`; resolves when the run has ended. */
export function sendMessage(
  conversationId: string | null,
  input: TurnInput,
  onEvent: (e: Envelope) => void,
): Promise<SendMessageResponse> {
  const onEventChannel = new Channel<Envelope>(onEvent);
  const request = { conversation_id: conversationId, input, skill: null, scenario: null, voice_mode: null };
  return call<SendMessageResponse>("send_message", { request, onEvent: onEventChannel });
}

export const cancelRun = (runId: string) => call<CancelRunResponse>("cancel_run", { request: { run_id: runId } });

export const resolveApproval = (requestId: string, approved: boolean) =>
  call<ResolveApprovalResponse>("resolve_approval", { request: { request_id: requestId, approved } });

export const conversations = {
  list: () => call<ConversationList>("list_conversations").then((l) => l.conversations),
  get: (id: string) => call<ConversationDetail>("get_conversation", { request: { id } }),
  rename: (id: string, title: string) => call<ConversationSummary>("rename_conversation", { request: { id, title } }),
  remove: (id: string) => call<DeleteConversationResponse>("delete_conversation", { request: { id } }),
  search: (query: string) =>
    call<ConversationList>("search_conversations", { request: { query } }).then((l) => l.conversations),
};

export const settings = {
  get: () => call<SettingsView>("get_settings"),
  /** Validated together by the core; on an error nothing is written. */
  update: (changes: SettingChange[]) => call<SettingsView>("update_settings", { request: { changes } }),
};

/** The key goes to the OS keychain; the webview can only learn whether one is stored. */
export const apiKey = {
  set: (baseUrl: string, key: string) => call<ApiKeyStatus>("set_api_key", { request: { base_url: baseUrl, key } }),
  clear: (baseUrl: string) => call<ApiKeyStatus>("clear_api_key", { request: { base_url: baseUrl } }),
  status: (baseUrl: string) => call<ApiKeyStatus>("api_key_status", { request: { base_url: baseUrl } }),
};

export const testConnection = (baseUrl: string, model: string) =>
  call<TestConnectionResponse>("test_connection", { request: { base_url: baseUrl, model: model || null } });

export const listModels = (baseUrl: string) =>
  call<ModelList>("list_models", { request: { base_url: baseUrl } }).then((l) => l.models.map((m) => m.id));

/** Opens the data folder in the system's file manager. */
export const openDataDir = () => call<void>("open_data_dir");

/** Whether no model is configured yet (no settings file and no `VIBE_LLM_BASE_URL`). */
export const needsFirstRun = () => call<boolean>("needs_first_run");

/** Open the locked data folder: its passphrase, or (a new folder only) no encryption. */
export const unlockDatabase = (request: UnlockDatabaseRequest) =>
  call<UnlockDatabaseResponse>("unlock_database", { request });

/** A backup file of the open data folder (`out`, or a new file in its `backups/`), and an export of
 * everything as JSON and Markdown into a new or empty folder (docs/privacy.md). */
export const data = {
  backup: (out: string | null = null) => call<BackupCreated>("create_backup", { request: { out } }),
  exportAll: (out: string) => call<ExportAllResponse>("export_all", { request: { out } }),
};

/** Local model servers answering on their default ports (probed by the core, not the webview). */
export const detectLocalServers = () => call<LocalServerView[]>("detect_local_servers");

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
  list: () => call<LocalModels>("list_local_models"),
  /** Downloads (or resumes) a catalogue model; `model_download_*` events arrive through
   * `onEvent`; resolves once it is verified and in place. */
  pull: (id: string, onEvent: (e: Envelope) => void) =>
    call<ModelPulled>("pull_model", { request: { id }, onEvent: new Channel<Envelope>(onEvent) }),
  /** Stops a download; its partial file is kept, so pulling again resumes. */
  cancel: (id: string) => call<ModelDownloadCancelled>("cancel_model_download", { request: { id } }),
  remove: (id: string) => call<ModelRemoved>("remove_model", { request: { id } }),
  /** Selects the `local` preset with this installed model. */
  use: (id: string) => call<ModelInUse>("use_model", { request: { id } }),
  /** The shell asks for a .gguf file (system dialog) and copies it in; null: the dialog was closed. */
  addFile: () => call<InstalledModelView | null>("add_model_file"),
};

/** The app's version, from Tauri's app API (the one core API the window is allowed). */
export const appVersion = () => getVersion();

/** Tells the shell the composer is interactive (it logs the launch time). */
export const uiReady = () => call<void>("ui_ready");

/** Where the shell wrote a file the person chose in the save dialog (`path` null: closed). */
export interface Saved {
  path: string | null;
  bytes: number;
}

export const protocols = {
  list: () => call<ProtocolList>("list_protocols").then((l) => l.protocols),
  /** Most recently active first. */
  runs: () => call<ProtocolRunList>("list_protocol_runs", { request: { skill: null } }).then((l) => l.runs),
  get: (runId: string) => call<ProtocolRunView>("get_protocol_run", { request: { run_id: runId } }),
  /** The structured answer to an invitation: the run starts (its events come back with it). */
  start: (id: string, skill: string | null) => call<ProtocolRunChange>("start_protocol", { request: { id, skill } }),
  later: (id: string, skill: string | null) => call<ProtocolLater>("later_protocol", { request: { id, skill } }),
  resume: (runId: string) => call<ProtocolRunChange>("resume_protocol", { request: { run_id: runId } }),
  cancel: (runId: string, reason: string | null = null) =>
    call<ProtocolRunChange>("cancel_protocol", { request: { run_id: runId, reason } }),
  /** The core renders the report; the shell asks where to save it (native dialog) and writes it. */
  exportReport: (runId: string, format: ReportFormatKind) =>
    call<Saved>("export_protocol_report", { request: { run_id: runId, format } }),
};

export const reminders = {
  /** The reminders the app notified that are still open (per run the latest due one, not answered). */
  notices: () => call<ReminderList>("reminder_notices").then((l) => l.reminders),
};

export const profile = {
  get: () => call<ProfileView>("get_profile").then((p) => p.profile),
  /** One dotted path; a `birth_info` change is checked (place looked up) before it is stored. */
  set: (path: string, value: unknown) => call<ProfileSet>("set_profile_path", { request: { path, value } }).then((p) => p.profile),
  /** Like `set`, answering also the place a `birth_info` write looked up and a zone warning. */
  setChecked: (path: string, value: unknown) => call<ProfileSet>("set_profile_path", { request: { path, value } }),
  /** What a typed birth place resolves to: one place (confirm it), several (let the person pick) or none. */
  lookupPlace: (query: string, timezone: string | null, date: string | null) =>
    call<PlaceLookup>("lookup_place", { request: { query, timezone, date } }),
  chart: (skill: string, force = false) => call<ChartView>("compute_chart", { request: { skill, force } }),
  state: (skill: string) => call<SkillStateView>("skill_state", { request: { skill, section: null } }).then((v) => v.state),
  /** Deep-merges `data` into one section of a skill's state (null removes a key). */
  writeState: (skill: string, section: string, data: unknown) =>
    call<StateWritten>("write_state", { request: { skill, section, data } }),
  /** Replaces entry `index` (newest first) of a list, which must still have `createdAt`. */
  editEntry: (skill: string, path: string, index: number, createdAt: string, entry: unknown) =>
    call<StateEntryEdited>("edit_state_entry", { request: { skill, path, index, created_at: createdAt, entry } }),
};

export const memory = {
  list: () => call<MemoryList>("list_memory", { request: { kind: null } }),
  edit: (id: string, text: string) => call<MemoryItemView>("edit_memory_item", { request: { id, text } }),
  forget: (id: string) => call<ForgetMemoryResponse>("forget_memory_item", { request: { id } }),
  setEnabled: (on: boolean) => call<MemorySwitch>("set_memory_enabled", { request: { on } }),
  /** Every item as one JSON document, saved where the person chooses (native dialog). */
  exportToFile: () => call<Saved>("save_memory_export"),
};

export const skills = {
  list: () => call<SkillList>("list_skills"),
  show: (name: string) => call<SkillDetail>("show_skill", { request: { name } }),
  check: () => call<SkillCheckReport>("check_skills", { request: { dirs: [] } }),
  reload: () => call<SkillsReloaded>("reload_skills"),
  create: (name: string) => call<NewSkillResponse>("new_skill", { request: { name } }),
  openFolder: () => call<void>("open_skills_dir"),
  /** From now on the registry's `skills_changed` notices (its file watcher) arrive through
   * `onEvent`; a later call replaces the earlier channel. */
  watch: (onEvent: (e: Envelope) => void) => call<void>("watch_skills", { onEvent: new Channel<Envelope>(onEvent) }),
};
