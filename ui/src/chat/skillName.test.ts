import { describe, expect, it } from "vitest";
import { displayName } from "./skillName";

const lifecoach = { name: "lifecoach", metadata: { display_name_zh: "人生教练", display_name_en: "Life Coach" } };

describe("a skill's display name", () => {
  it("is the one of the UI's language, not the folder name", () => {
    expect(displayName(lifecoach, "lifecoach", "zh-CN")).toBe("人生教练");
    expect(displayName(lifecoach, "lifecoach", "en")).toBe("Life Coach");
  });
  it("falls back to the other language, then to the folder name", () => {
    expect(displayName({ metadata: { display_name_zh: "习惯" } }, "habits", "en")).toBe("习惯");
    expect(displayName({ metadata: {} }, "habits", "zh-CN")).toBe("habits");
    expect(displayName(null, "habits", "en")).toBe("habits");
  });
});
