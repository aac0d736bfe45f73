import i18next from "i18next";
import { describe, expect, it } from "vitest";
import en from "../i18n/en.json";
import zhCN from "../i18n/zh-CN.json";
import type { Hint } from "../wire";
import { HINT_TYPES, hintText, SETTINGS_HINTS } from "./hint";

/** One hint of each type, with values that must show in the words. */
const SAMPLES: Hint[] = [
  { type: "setting", key: "llm.timeout_secs", file: "/d/settings.json" },
  { type: "settings_file", file: "/d/settings.json" },
  { type: "endpoint", base_url: "http://127.0.0.1:11434/v1" },
  { type: "choose_model", base_url: "http://127.0.0.1:1234/v1" },
  { type: "api_key", base_url: "https://api.deepseek.com/v1" },
  { type: "keychain" },
  { type: "needs_conversation" },
  { type: "retry_turn", conversation_id: "c1" },
  { type: "conversation", id: "c1" },
  { type: "run", id: "r-42" },
  { type: "skill", name: "bazi" },
  { type: "data_dir", path: "/d" },
  { type: "skill_resource", skill: "tarot" },
  { type: "protocol", id: "dankoe" },
  { type: "protocol_skill", id: "dankoe" },
  { type: "protocol_start", skill: "lifecoach" },
  { type: "protocol_run", id: "p-7" },
  { type: "memory_item", id: "m-1" },
  { type: "memory_off" },
  { type: "birth_info", field: "birth_info.date" },
  { type: "db_passphrase", data_dir: "/home/me/.local/share/app.vibelife.desktop" },
  { type: "db_key", data_dir: "/d" },
  { type: "local_model", id: "qwen2.5-1.5b-instruct-q4_k_m" },
];

async function translator(lang: string) {
  const i = i18next.createInstance();
  await i.init({ lng: lang, resources: { en: { translation: en }, "zh-CN": { translation: zhCN } } });
  return i.t;
}

describe("hints in the app's words", () => {
  it("cover every hint type", () => {
    expect(SAMPLES.map((h) => h.type).sort()).toEqual([...HINT_TYPES].sort());
  });

  it.each(["en", "zh-CN"])("name their values and the Settings screen where the fix is (%s)", async (lang) => {
    const t = await translator(lang);
    const settings = lang === "en" ? "Settings" : "设置";
    for (const hint of SAMPLES) {
      const text = hintText(t, hint) ?? "";
      expect(text, hint.type).not.toMatch(/hints\.|\{\{|--|vibe /);
      // Every value a person can act on shows; a conversation's id does not (they see its title).
      const shown = Object.entries(hint).filter(([k]) => k !== "type" && k !== "conversation_id" && hint.type !== "conversation" && hint.type !== "memory_item");
      for (const [, v] of shown) expect(text, hint.type).toContain(v);
      if (SETTINGS_HINTS.has(hint.type)) expect(text, hint.type).toContain(settings);
    }
  });

  it("say nothing without a hint", async () => {
    expect(hintText(await translator("en"), null)).toBeNull();
  });
});
