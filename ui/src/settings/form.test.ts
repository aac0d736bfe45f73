import { describe, expect, it } from "vitest";
import { DEFAULT_SETTINGS, applyChange } from "../e2e-mock/settings";
import type { SettingChange, SettingsView } from "../wire";
import { changesFromForm, formFromView } from "./form";

/** The view of the effective settings after `changes` to an empty file. */
const view = (changes: SettingChange[]): SettingsView => ({
  file: "/data/settings.json",
  data_dir: "/data",
  settings: changes.reduce(applyChange, DEFAULT_SETTINGS),
  presets: [],
});

describe("the settings form", () => {
  it("reads the keys it edits from the effective settings", () => {
    const form = formFromView(
      view([
        { key: "llm.preset", value: "deepseek" },
        { key: "llm.base_url", value: "https://api.deepseek.com/v1" },
        { key: "llm.model", value: "deepseek-chat" },
        { key: "llm.tool_mode", value: "native" },
        { key: "preferences.language", value: "zh-CN" },
      ]),
    );
    expect(form).toEqual({
      preset: "deepseek",
      base_url: "https://api.deepseek.com/v1",
      model: "deepseek-chat",
      tool_mode: "native",
      language: "zh-CN",
    });
  });

  it("shows unset keys as empty and the system language as empty", () => {
    const form = formFromView(view([]));
    expect(form).toEqual({ preset: "", base_url: "", model: "", tool_mode: "auto", language: "" });
  });

  it("saves empty fields as removals so their defaults apply", () => {
    const changes = changesFromForm({ preset: "", base_url: " http://127.0.0.1:1234/v1 ", model: "", tool_mode: "structured", language: "" });
    expect(changes).toEqual([
      { key: "llm.preset", value: null },
      { key: "llm.base_url", value: "http://127.0.0.1:1234/v1" },
      { key: "llm.model", value: null },
      { key: "llm.tool_mode", value: "structured" },
      { key: "preferences.language", value: "system" },
    ]);
  });

  it("round-trips a form through the settings document", () => {
    const form = { preset: "ollama", base_url: "http://127.0.0.1:11434/v1", model: "qwen2.5", tool_mode: "auto" as const, language: "en" };
    expect(formFromView(view(changesFromForm(form)))).toEqual(form);
  });

  it("type-checks a change's key and value against the settings types", () => {
    // @ts-expect-error: no such key (a typo would otherwise only fail in the core)
    const typo: SettingChange = { key: "llm.modle", value: "x" };
    // @ts-expect-error: `llm.retries` is a number
    const wrong: SettingChange = { key: "llm.retries", value: "many" };
    // @ts-expect-error: quiet hours are a start and an end
    const half: SettingChange = { key: "preferences.reminders.quiet_hours", value: { start: "22:00" } };
    const fine: SettingChange[] = [
      { key: "preferences.reminders.quiet_hours", value: { start: "22:00", end: "07:00" } },
      { key: "chat.budgets.max_rounds", value: null },
    ];
    expect([typo, wrong, half, ...fine]).toHaveLength(5);
  });
});
