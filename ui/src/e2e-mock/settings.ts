// The mocked shell's settings document, typed by the generated `Settings` as the core answers
// it in `SettingsView.settings`, and a change applied to it the way the core applies one: a
// dotted key set, `null` putting the key's default back. Validation beyond what the browser
// tests need (quiet hours of no length) is the core's and is not repeated here.

import { languageSetting } from "../settings/form";
import type { Encryption, SettingChange, Settings } from "../wire";

/** The effective settings of an empty `settings.json` (a test checks them against the core's). */
export const DEFAULT_SETTINGS: Settings = {
  llm: {
    preset: null,
    base_url: null,
    model: null,
    tool_mode: "auto",
    retries: 2,
    retry_base_ms: 500,
    max_retry_wait_s: 60,
    connect_timeout_s: 10,
    first_byte_timeout_s: 60,
    idle_timeout_s: 60,
    include_usage: null,
    temperature: null,
    max_tokens: null,
    local: { threads: null, context_tokens: null, mmap: true, warm_up: true },
  },
  skills: { extra_dir: null, max_resource_bytes: null },
  tools: { script_timeout_secs: null, script_output_bytes: null, script_max_processes: null, script_memory_mib: null, trusted_skills: [] },
  chat: {
    budgets: { max_rounds: 10, max_tool_calls: 24, max_script_runs: 3, max_consecutive_failures: 3 },
    context: {
      phase1_prompt_tokens: 2000,
      phase2_prompt_tokens: 6000,
      phase1_history_messages: 5,
      phase2_history_messages: 10,
      phase1_history_tokens: 1500,
      phase2_history_tokens: 4000,
      history_mode: "fixed_count",
      max_context_tokens: 16000,
      reply_reserve_tokens: 2000,
      cases_top_k: 2,
      summary_max_tokens: 600,
      state_list_items: 10,
      memory_tokens: 400,
    },
    seed: null,
    summarize_with_model: false,
    protocol: { idle_timeout_minutes: 60, recap_after_minutes: 10 },
    memory: { quiet_minutes: 10, every_turns: 10 },
  },
  preferences: { language: "system", theme: "system", reminders: { notify: true, quiet_hours: null }, on_close: "ask", updates: "undecided" },
  storage: { encryption: null },
  backups: { daily: true, keep: 7 },
  models: { catalog: null },
  sync: { folder: null, device_id: null },
  mcp: { servers: {} },
};

const isObject = (v: unknown): v is Record<string, unknown> => !!v && typeof v === "object" && !Array.isArray(v);

/** A copy of `doc` with `change` applied: the key set, or (`null`) back to its default. */
export function applyChange(doc: Settings, change: SettingChange): Settings {
  const out = structuredClone(doc);
  const path = change.key.split(".");
  const last = path.pop() ?? "";
  let at: unknown = out;
  let defaults: unknown = DEFAULT_SETTINGS;
  for (const part of path) {
    if (!isObject(at)) return out;
    at = at[part];
    defaults = isObject(defaults) ? defaults[part] : undefined;
  }
  if (isObject(at)) at[last] = change.value ?? (isObject(defaults) ? structuredClone(defaults[last]) : null) ?? null;
  return out;
}

/** What the mocked data folder starts with: a local Ollama model, the language of `?lang=`. */
export function initialSettings(lang: string | null): Settings {
  const start: SettingChange[] = [
    { key: "llm.preset", value: "ollama" },
    { key: "llm.base_url", value: "http://127.0.0.1:11434/v1" },
    { key: "llm.model", value: "qwen2.5" },
    { key: "preferences.language", value: languageSetting(lang ?? "") },
  ];
  return start.reduce(applyChange, DEFAULT_SETTINGS);
}

/** `?encryption=none|passphrase|keychain` as the key mode (anything else: the keychain). */
export const encryptionOf = (text: string | null | undefined): Encryption =>
  text === "none" || text === "passphrase" ? text : "keychain";
