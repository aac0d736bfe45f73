// The one module that talks to the Tauri shell: a typed function per command of issue #15.
// Components import from here and never call `invoke` themselves, so browser tests replace
// the backend by mocking the IPC under this module.

import { Channel, invoke } from "@tauri-apps/api/core";
import type { Envelope, ErrorInfo } from "../wire";
import type {
  CommandError,
  ConnectionResult,
  Conversation,
  ConversationSummary,
  Settings,
  TurnInput,
} from "./types";

export type * from "./types";

/** Turns whatever the shell rejected with into an `ErrorInfo` (it sends `{kind, message}`). */
export function toErrorInfo(e: unknown): ErrorInfo {
  if (e && typeof e === "object" && "kind" in e && "message" in e) {
    const { kind, message } = e as CommandError;
    return { kind: String(kind), message: String(message) };
  }
  return { kind: "internal", message: e instanceof Error ? e.message : String(e) };
}

async function call<T>(cmd: string, args?: Record<string, unknown>): Promise<T> {
  try {
    return await invoke<T>(cmd, args);
  } catch (e) {
    throw toErrorInfo(e);
  }
}

/** Starts a turn; every event of its run arrives through `onEvent`. Resolves with the run id. */
export function sendMessage(
  conversationId: string | null,
  input: TurnInput,
  onEvent: (e: Envelope) => void,
): Promise<string> {
  const channel = new Channel<Envelope>(onEvent);
  return call<string>("send_message", { conversationId, input, onEvent: channel });
}

export const cancelRun = (runId: string) => call<void>("cancel_run", { runId });

export function retryLast(conversationId: string, onEvent: (e: Envelope) => void): Promise<string> {
  const channel = new Channel<Envelope>(onEvent);
  return call<string>("retry_last", { conversationId, onEvent: channel });
}

export const resolveApproval = (requestId: string, approved: boolean) =>
  call<void>("resolve_approval", { requestId, approved });

export const conversations = {
  list: () => call<ConversationSummary[]>("conversations_list"),
  get: (id: string) => call<Conversation>("conversations_get", { id }),
  rename: (id: string, title: string) => call<void>("conversations_rename", { id, title }),
  remove: (id: string) => call<void>("conversations_delete", { id }),
  search: (query: string) => call<ConversationSummary[]>("conversations_search", { query }),
};

export const settings = {
  get: () => call<Settings>("settings_get"),
  set: (value: Omit<Settings, "data_dir" | "presets">) => call<void>("settings_set", { value }),
};

/** The key goes to the OS keychain; the webview can only ask whether one is stored. */
export const apiKey = {
  set: (baseUrl: string, key: string) => call<void>("api_key_set", { baseUrl, key }),
  clear: (baseUrl: string) => call<void>("api_key_clear", { baseUrl }),
  isSet: (baseUrl: string) => call<boolean>("api_key_is_set", { baseUrl }),
};

export const testConnection = (baseUrl: string, model: string) =>
  call<ConnectionResult>("test_connection", { baseUrl, model });

export const listModels = (baseUrl: string) => call<string[]>("list_models", { baseUrl });

/** Opens the data folder in the system's file manager. */
export const openDataDir = () => call<void>("open_data_dir");
