// The shell's own answers that are not wire commands (first run), and the Settings screen's
// editable view of `settings.json`. Every command DTO comes from the generated ../wire.

/** A local model server found on its default port at first run (`vibe_llm::LocalServer`). */
export interface LocalServer {
  /** Preset name: `ollama` or `lmstudio`. */
  preset: string;
  label: string;
  base_url: string;
  models: string[];
}

export type ToolMode = "auto" | "native" | "structured";

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
