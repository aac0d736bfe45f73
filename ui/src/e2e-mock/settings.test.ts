import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { DEFAULT_SETTINGS, applyChange } from "./settings";

/** The core's own record of its effective defaults (its compatibility test checks it). */
const coreDefaults: unknown = JSON.parse(
  readFileSync(new URL("../../../crates/core/src/app/testdata/settings-defaults.json", import.meta.url), "utf8"),
);

describe("the mocked shell's settings", () => {
  it("start from the core's effective defaults", () => {
    expect(DEFAULT_SETTINGS).toEqual(coreDefaults);
  });

  it("apply a change by its dotted key and put the default back for null", () => {
    const quiet = applyChange(DEFAULT_SETTINGS, { key: "preferences.reminders.quiet_hours", value: { start: "22:00", end: "07:00" } });
    expect(quiet.preferences.reminders.quiet_hours).toEqual({ start: "22:00", end: "07:00" });
    expect(DEFAULT_SETTINGS.preferences.reminders.quiet_hours).toBeNull();
    const model = applyChange(quiet, { key: "llm.model", value: "qwen2.5" });
    expect(model.llm.model).toBe("qwen2.5");
    const back = applyChange(applyChange(model, { key: "llm.retries", value: 5 }), { key: "llm.retries", value: null });
    expect(back.llm.retries).toBe(2);
    expect(applyChange(model, { key: "chat.budgets.max_rounds", value: 3 }).chat.budgets).toMatchObject({ max_rounds: 3, max_tool_calls: 24 });
  });
});
