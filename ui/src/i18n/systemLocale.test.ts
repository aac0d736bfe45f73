import { describe, expect, it } from "vitest";
import { guardSystemLocale, isValidLocale, safeLocales } from "./systemLocale";

describe("the system locale guard", () => {
  it("knows the tags Intl refuses", () => {
    expect(isValidLocale("zh-CN")).toBe(true);
    expect(isValidLocale("en-US")).toBe(true);
    for (const tag of ["C", "c", "C.UTF-8", ""]) expect(isValidLocale(tag), tag).toBe(false);
  });

  it("keeps valid tags in order and falls back when none is valid", () => {
    expect(safeLocales(["C", "de-DE", "zh-CN"])).toEqual(["de-DE", "zh-CN"]);
    expect(safeLocales(["C"])).toEqual(["en-US"]);
  });

  it("turns WebKitGTK's 'C' into a locale a number formatter accepts", () => {
    const nav = { language: "C", languages: ["C"] as readonly string[] };
    expect(() => new Intl.NumberFormat(nav.language)).toThrow(RangeError);
    expect(guardSystemLocale(nav)).toBe(true);
    expect(nav.language).toBe("en-US");
    expect(nav.languages).toEqual(["en-US"]);
    expect(() => new Intl.NumberFormat(nav.language)).not.toThrow();
  });

  it("drops only the bad tags and keeps the system's first valid language", () => {
    const nav = { language: "zh-CN", languages: ["zh-CN", "C"] as readonly string[] };
    expect(guardSystemLocale(nav)).toBe(true);
    expect(nav.language).toBe("zh-CN");
    expect(nav.languages).toEqual(["zh-CN"]);
  });

  it("leaves a sound system alone", () => {
    const nav = { language: "en-GB", languages: ["en-GB", "fr"] as readonly string[] };
    expect(guardSystemLocale(nav)).toBe(false);
    expect(nav.languages).toEqual(["en-GB", "fr"]);
  });
});
