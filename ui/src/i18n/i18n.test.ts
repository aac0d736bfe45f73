import { describe, expect, it } from "vitest";
import en from "./en.json";
import zhCN from "./zh-CN.json";
import { systemLanguage } from "./index";

/** Every leaf key, dotted, with its value. */
function leaves(o: object, prefix = ""): Map<string, unknown> {
  const out = new Map<string, unknown>();
  for (const [k, v] of Object.entries(o)) {
    const key = prefix ? `${prefix}.${k}` : k;
    if (v && typeof v === "object") for (const [kk, vv] of leaves(v, key)) out.set(kk, vv);
    else out.set(key, v);
  }
  return out;
}

describe("i18n resources", () => {
  const files = { en: leaves(en), "zh-CN": leaves(zhCN) };

  it("have the same keys in every language", () => {
    const missingInZh = [...files.en.keys()].filter((k) => !files["zh-CN"].has(k));
    const missingInEn = [...files["zh-CN"].keys()].filter((k) => !files.en.has(k));
    expect(missingInZh, "keys missing in zh-CN.json").toEqual([]);
    expect(missingInEn, "keys missing in en.json").toEqual([]);
  });

  it("use the same {{placeholders}} for a key in every language", () => {
    const vars = (s: unknown) => [...String(s).matchAll(/\{\{(\w+)\}\}/g)].map((m) => m[1]).sort();
    for (const [k, v] of files.en) expect(vars(files["zh-CN"].get(k)), k).toEqual(vars(v));
  });

  it("leave no text empty except the status of a finished reply", () => {
    for (const [lang, map] of Object.entries(files)) {
      const empty = [...map].filter(([k, v]) => v === "" && k !== "chat.status.done").map(([k]) => k);
      expect(empty, lang).toEqual([]);
    }
  });

  it("follow the system language", () => {
    expect(systemLanguage(["zh-TW", "en"])).toBe("zh-CN");
    expect(systemLanguage(["en-GB"])).toBe("en");
    expect(systemLanguage(["fr-FR"])).toBe("en");
  });
});
