import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import i18next from "i18next";
import { beforeAll, describe, expect, it } from "vitest";
import { resources } from "../i18n";
import { TOOL_LINES, toolLine, withEnglishStep } from "./toolLine";

const obj = (v: unknown) => v as Record<string, unknown>;

/** The core's one list of built-in tools (`pub const BUILTIN_TOOLS` somewhere under crates/). */
function builtinTools(): string[] {
  const root = join(__dirname, "../../../crates");
  const stack = [root];
  while (stack.length) {
    const dir = stack.pop()!;
    for (const name of readdirSync(dir)) {
      const path = join(dir, name);
      if (statSync(path).isDirectory()) {
        if (name !== "target") stack.push(path);
      } else if (name.endsWith(".rs")) {
        const m = readFileSync(path, "utf8").match(/pub const BUILTIN_TOOLS: &\[&str\] = &\[([^\]]*)\]/);
        if (m) return [...(m[1] ?? "").matchAll(/"([a-z_]+)"/g)].map((x) => x[1] ?? "");
      }
    }
  }
  throw new Error("BUILTIN_TOOLS not found under crates/");
}

const langs = Object.keys(resources) as (keyof typeof resources)[];
const t = (lng: string) => i18next.getFixedT(lng);

beforeAll(async () => {
  await i18next.init({ resources, lng: "en", fallbackLng: false, interpolation: { escapeValue: false } });
});

describe("tool lines", () => {
  it("cover exactly the core's built-in tools", () => {
    const core = builtinTools();
    expect(core.length).toBeGreaterThan(10);
    expect([...TOOL_LINES].sort()).toEqual([...core].sort());
  });

  it("give every built-in tool its own words in every language", () => {
    for (const lng of langs) {
      for (const name of builtinTools()) {
        const line = toolLine(t(lng), { name, arguments: {}, result: undefined });
        expect(line, `${name} in ${lng}`).not.toMatch(/chat\.toolLine|\{\{/);
        expect(line, `${name} in ${lng}`).not.toContain(name);
        expect(line.trim().length, `${name} in ${lng}`).toBeGreaterThan(1);
      }
    }
  });

  it("word the common calls from their arguments and result", () => {
    const zh = t("zh-CN");
    const en = t("en");
    const step = {
      name: "advance_protocol_step",
      arguments: { step_data: {} },
      result: { status: "success", saved_step: 1, next_step: { step: 2, title: "反愿景" } },
    };
    expect(toolLine(zh, step)).toBe("记下了第 1 步，接下来：反愿景");
    expect(toolLine(en, step)).toBe("Saved step 1 — next: 反愿景");
    const journal = { name: "append_to_list", arguments: { path: "journal", entry: {} } };
    expect(toolLine(en, journal)).toBe("Saved your journal entry");
    expect(toolLine(zh, journal)).toBe("记下了你的日记");
    expect(toolLine(en, { name: "read_state", arguments: { sections: ["goals"] } })).toBe("Looked at your goals");
    expect(toolLine(zh, { name: "read_state", arguments: { sections: ["goals", "journal"] } })).toBe("看了看你的目标和日记");
    expect(toolLine(en, { name: "use_skill", arguments: { skill: "lifecoach" } })).toBe("Opened the skill lifecoach");
    expect(toolLine(en, { name: "lookup_weather", arguments: {} })).toBe("Used the skill's tool lookup_weather");
  });

  it("name a connected server's tool by its server in every language", () => {
    for (const lng of langs) {
      const line = toolLine(t(lng), { name: "mcp__calendar__list_events", arguments: {}, result: undefined });
      expect(line, lng).toContain("calendar");
      expect(line, lng).toContain("list_events");
      expect(line, lng).not.toContain("mcp__");
      const opened = toolLine(t(lng), { name: "use_connection", arguments: { server: "calendar" }, result: undefined });
      expect(opened, lng).toContain("calendar");
    }
  });
});

describe("withEnglishStep", () => {
  const names = { zh: ["觉察痛点", "反愿景"], en: ["Name the pain", "Anti-vision"] };
  const advance = (title: string) => ({
    name: "advance_protocol_step",
    result: { status: "success", saved_step: 1, next_step: { step: 2, total_steps: 6, title } },
  });
  it("names the next step in English when the protocol followed names it so", () => {
    expect(obj(withEnglishStep(advance("反愿景"), names).result).next_step).toMatchObject({ title: "Anti-vision" });
  });
  it("keeps the title of another protocol's step, or without English names", () => {
    expect(withEnglishStep(advance("别的步骤"), names)).toEqual(advance("别的步骤"));
    expect(withEnglishStep(advance("反愿景"), { zh: names.zh, en: [] })).toEqual(advance("反愿景"));
  });
});
