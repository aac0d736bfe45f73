// The mocked shell's updates answer as src-tauri/src/update_runs.rs does (its tests are the
// same cases against the real core): the browser tests lean on these answers.
import { describe, expect, it } from "vitest";
import { DEFAULT_SETTINGS, applyChange } from "./settings";
import { createUpdates } from "./updates";
import type { Settings, UpdateChecks } from "../wire";

function shell(query: string, choice: UpdateChecks) {
  let settings: Settings = applyChange(DEFAULT_SETTINGS, { key: "preferences.updates", value: choice });
  let announced = 0;
  const updates = createUpdates(new URLSearchParams(query), () => settings, () => (announced += 1));
  const check = (manual: boolean) => updates.handle({ cmd: "update_check", request: { manual } }) as { outcome: string };
  const install = () => updates.handle({ cmd: "update_install", request: undefined }) as { outcome: string };
  const choose = (c: UpdateChecks) => (settings = applyChange(settings, { key: "preferences.updates", value: c }));
  return { state: updates.state, check, install, choose, announced: () => announced };
}

describe("the mocked shell's update checks", () => {
  it("make no request until the person allowed them, not even the clock's", () => {
    for (const choice of ["undecided", "off"] as const) {
      const s = shell("update=0.2.0", choice);
      expect(s.check(false).outcome).toBe("not_allowed");
      expect(s.check(true).outcome).toBe("not_allowed");
      expect(s.state.clock().outcome).toBe("not_allowed");
      expect(s.state.serverRequests).toBe(0);
      expect(s.announced()).toBe(0);
    }
  });

  it("hand what the clock found to the window once, and keep it for the install", () => {
    const s = shell("update=0.2.0&updateChecked=today", "ask");
    expect(s.check(false).outcome).toBe("not_due");
    expect(s.state.clock().outcome).toBe("available");
    expect(s.announced()).toBe(1);
    expect(s.check(false).outcome).toBe("available");
    expect(s.check(false).outcome).toBe("not_due");
    expect(s.state.serverRequests).toBe(1);
    expect(s.install().outcome).toBe("installed");
  });

  it("let go of what was found when checks are turned off", () => {
    const s = shell("update=0.2.0", "ask");
    expect(s.state.clock().outcome).toBe("available");
    s.choose("off");
    expect(s.check(false).outcome).toBe("not_allowed");
    expect(s.install().outcome).toBe("nothing_to_install");
  });
});
