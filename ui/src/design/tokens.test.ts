// Keeps the design system true: no raw colour or pixel value outside design/tokens.css, every
// colour token defined for both themes, and every screen built from the shared components.

import { readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative } from "node:path";
import { describe, expect, it } from "vitest";

const SRC = join(__dirname, "..");
const TOKENS = join(__dirname, "tokens.css");

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return name === "wire" ? [] : files(path);
    return /\.(css|tsx?)$/.test(name) && !/\.test\.tsx?$/.test(name) ? [path] : [];
  });
}

/** The text without comments (a comment may mention a size in words). */
function code(text: string): string {
  return text.replace(/\/\*[\s\S]*?\*\//g, "").replace(/(^|[^:"'`])\/\/.*$/gm, "$1");
}

const RAW = [
  { what: "hex colour", re: /#[0-9a-fA-F]{3,8}\b/g },
  { what: "rgb/hsl colour", re: /\b(?:rgba?|hsla?)\(/g },
  { what: "pixel value", re: /\b\d+(?:\.\d+)?px\b/g },
  { what: "named colour", re: /:\s*(?:white|black|red|blue|green|gray|grey)\b/g },
];

describe("design tokens", () => {
  it("are the only place with raw colours and pixel values", () => {
    const found: string[] = [];
    for (const path of files(SRC)) {
      if (path === TOKENS) continue;
      const text = code(readFileSync(path, "utf8"));
      for (const { what, re } of RAW)
        for (const m of text.matchAll(re)) found.push(`${relative(SRC, path)}: ${what} ${m[0]}`);
    }
    expect(found).toEqual([]);
  });

  it("define every colour in the dark theme too", () => {
    const css = readFileSync(TOKENS, "utf8");
    const [light, dark] = css.split(':root[data-theme="dark"]');
    const names = (s = "") => [...s.matchAll(/(--color-[a-z-]+):/g)].map((m) => m[1]).sort();
    expect(names(dark)).toEqual(names(light));
    expect(names(light).length).toBeGreaterThan(10);
  });

  it("are used by every stylesheet only through names that exist", () => {
    const defined = new Set([...readFileSync(TOKENS, "utf8").matchAll(/(--[a-z0-9-]+):/g)].map((m) => m[1]));
    const unknown: string[] = [];
    for (const path of files(SRC).filter((p) => p.endsWith(".css")))
      for (const m of readFileSync(path, "utf8").matchAll(/var\((--[a-z0-9-]+)/g))
        if (!defined.has(m[1])) unknown.push(`${relative(SRC, path)}: ${m[1]}`);
    expect(unknown).toEqual([]);
  });
});

describe("the design system's components", () => {
  const SCREENS = [
    "today", "checkin", "journal", "insights", "chat", "settings", "skills", "protocols", "me", "firstrun",
    "unlock", "reminders",
  ];
  it("are used by every screen", () => {
    for (const screen of SCREENS) {
      const uses = files(join(SRC, screen)).some((p) => /from "\.\.\/design"/.test(readFileSync(p, "utf8")));
      expect(uses, `${screen}/ imports ../design`).toBe(true);
    }
  });
});
