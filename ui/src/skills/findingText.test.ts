import i18next, { type TFunction } from "i18next";
import { describe, expect, it } from "vitest";
import { resources } from "../i18n";
import type { ProblemCode, SkillProblemView } from "../wire";
import { findingParts, findingText } from "./findingText";
import { YAML_PHRASE_KEYS } from "./yamlDetail";

async function tFor(lng: "en" | "zh-CN"): Promise<TFunction> {
  const i = i18next.createInstance();
  await i.init({ resources, lng, fallbackLng: false, interpolation: { escapeValue: false } });
  return i.t;
}

const finding = (code: ProblemCode, message = "the checker's sentence"): SkillProblemView => ({
  path: "/skills/coach/SKILL.md",
  line: 4,
  col: 7,
  severity: "error",
  code,
  message,
});

describe("skill findings worded in the UI's language", () => {
  it("keep path:line:col and word each kind in Chinese", async () => {
    const t = await tFor("zh-CN");
    expect(findingText(finding({ code: "missing_field", field: "description" }), t)).toBe(
      "/skills/coach/SKILL.md:4:7: 错误: 前置信息缺少必填字段 `description`",
    );
    expect(findingText(finding({ code: "wrong_type", field: "triggers", expected: "list", found: "a mapping" }), t)).toBe(
      "/skills/coach/SKILL.md:4:7: 错误: `triggers` 应该是列表，实际是映射",
    );
    expect(findingText({ ...finding({ code: "unknown_key", key: "triger", known: "triggers" }), severity: "warning" }, t)).toBe(
      "/skills/coach/SKILL.md:4:7: 警告: 未知的键 `triger` 已忽略（可用：triggers）",
    );
    expect(findingText(finding({ code: "name_not_folder", name: "coach2", folder: "coach" }), t)).toContain("必须与文件夹名 `coach` 相同");
  });

  it("word them in English, and show the checker's sentence for other findings", async () => {
    const t = await tFor("en");
    expect(findingText(finding({ code: "empty_field", field: "name" }), t)).toBe("/skills/coach/SKILL.md:4:7: error: `name` is empty; it is required");
    expect(findingText(finding({ code: "invalid_yaml", detail: "expected ',' or ']'" }), t)).toBe(
      "/skills/coach/SKILL.md:4:7: error: the YAML cannot be read: expected ',' or ']'",
    );
    expect(findingText(finding({ code: "other" }, "steps[1].reminders[0].at must be HH:MM"), t)).toBe(
      "/skills/coach/SKILL.md:4:7: error: steps[1].reminders[0].at must be HH:MM",
    );
    // A kind of value the UI does not know is shown as the checker wrote it.
    expect(findingText(finding({ code: "wrong_type", field: "x", expected: "text", found: "`yes`" }), t)).toBe(
      "/skills/coach/SKILL.md:4:7: error: `x` must be text, found `yes`",
    );
  });
});

describe("a YAML finding", () => {
  it("is worded in Chinese from the parser's common phrases, its place included", async () => {
    const t = await tFor("zh-CN");
    const line = findingText(finding({ code: "invalid_yaml", detail: "while parsing a flow sequence, expected ',' or ']' at line 4 column 1" }), t);
    expect(line).toBe("/skills/coach/SKILL.md:4:7: 错误: YAML 无法解析：解析方括号列表 [...] 时，缺少“,”或“]”（第 4 行第 1 列）");
    expect(line.replace("/skills/coach/SKILL.md", "").replace("YAML", "")).not.toMatch(/[A-Za-z]{2,}/);
  });

  it("keeps a phrase it does not know out of the line, as the parser's words below it", async () => {
    const t = await tFor("zh-CN");
    const parts = findingParts(finding({ code: "invalid_yaml", detail: "recursion limit exceeded" }), t);
    expect(parts.text).toBe("/skills/coach/SKILL.md:4:7: 错误: YAML 无法解析（解析器的原话见下方）");
    expect(parts.detail).toBe("recursion limit exceeded");
  });

  it("has words for every parser phrase in every language", async () => {
    for (const lang of ["en", "zh-CN"] as const) {
      const t = await tFor(lang);
      for (const key of YAML_PHRASE_KEYS) expect(t(`skills.finding.yaml.${key}`), `${lang} ${key}`).not.toContain("skills.finding");
    }
  });
});
