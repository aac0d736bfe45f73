// The Settings screen's editable view of `settings.json`. Every command DTO comes from the
// generated ../wire.

import type { ToolMode } from "../wire";

export type { ToolMode };

/** What the Settings screen edits: a few keys of `settings.json` (never an API key). */
export interface SettingsForm {
  /** `llm.preset`; empty: detected from the base URL. */
  preset: string;
  base_url: string;
  model: string;
  tool_mode: ToolMode;
  /** `preferences.language`: `zh-CN`, `en`, or empty to follow the system. */
  language: string;
}
