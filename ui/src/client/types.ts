// Request and response shapes of the desktop commands (issue #15) that the wire crate does
// not define yet. Events, errors and plans come from the generated `../wire` types; when the
// wire crate gains its command DTOs (issue #14) these are replaced by the generated ones.

import type { ErrorInfo } from "../wire";

/** What a turn sends: a new message, or the last one again. */
export type TurnInput = { say: string } | "retry";

export interface ConversationSummary {
  id: string;
  title: string;
  /** RFC 3339 UTC. */
  updated_at: string;
  message_count: number;
}

export interface ChatMessage {
  role: "user" | "assistant";
  text: string;
  /** Set on an assistant reply that did not complete (stopped, crashed, failed). */
  interrupted?: boolean;
}

export interface Conversation {
  summary: ConversationSummary;
  messages: ChatMessage[];
}

export type ToolMode = "auto" | "native" | "structured";

/** The `llm` section of settings.json, as the UI edits it. No API key: that is in the keychain. */
export interface LlmSettings {
  preset: string;
  base_url: string;
  model: string;
  tool_mode: ToolMode;
}

export interface Settings {
  llm: LlmSettings;
  /** `zh-CN`, `en`, or empty to follow the system. */
  language: string;
  /** Read-only: where the database and skills live. */
  data_dir: string;
  /** Provider presets the core knows, for the picker. */
  presets: Array<{ name: string; base_url: string; needs_key: boolean }>;
}

export interface ConnectionResult {
  ok: boolean;
  /** Models the endpoint lists, when it answered. */
  models: string[];
  error: ErrorInfo | null;
}

/** A failed command, as the shell returns it (a typed kind and a message). */
export type CommandError = ErrorInfo;
