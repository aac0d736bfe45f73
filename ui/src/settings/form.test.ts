import { describe, expect, it } from "vitest";
import type { SettingsView } from "../wire";
import { changesFromForm, formFromView } from "./form";

const view = (settings: unknown): SettingsView => ({
  file: "/data/settings.json",
  data_dir: "/data",
  settings: settings as SettingsView["settings"],
  presets: [],
});

describe("the settings form", () => {
  it("reads the keys it edits from the effective settings", () => {
    const form = formFromView(
      view({
        llm: { preset: "deepseek", base_url: "https://api.deepseek.com/v1", model: "deepseek-chat", tool_mode: "native", retries: 2 },
        preferences: { language: "zh-CN" },
      }),
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
    const form = formFromView(view({ llm: { preset: null, base_url: null, model: null, tool_mode: "auto" }, preferences: { language: "system" } }));
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
    const doc: Record<string, Record<string, unknown>> = { llm: {}, preferences: {} };
    for (const { key, value } of changesFromForm(form)) {
      const [section, name] = key.split(".") as [string, string];
      (doc[section] ??= {})[name] = value;
    }
    expect(formFromView(view(doc))).toEqual(form);
  });
});
