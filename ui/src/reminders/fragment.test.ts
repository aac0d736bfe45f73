import { describe, expect, it } from "vitest";
import { reminderKeyOf } from "./fragment";
import { reminderKey } from "./ReminderCard";

describe("the reminder fragment", () => {
  it("names the reminder by the key the card uses", () => {
    const key = reminderKey({ protocol_run_id: "0193a2b4-live", step: 4, at: "15:15" } as Parameters<typeof reminderKey>[0]);
    expect(reminderKeyOf(`#reminder=${key}`)).toBe("0193a2b4-live/4/15:15");
    // WebKit may hand the fragment back percent-encoded.
    expect(reminderKeyOf("#reminder=0193a2b4-live%2F4%2F15%3A15")).toBe("0193a2b4-live/4/15:15");
  });

  it("names nothing for the screens' fragments or a broken one", () => {
    for (const hash of ["", "#", "#today", "#chat", "#reminder=", "#reminder=only-a-run", "#reminder=%E0%A4%A", "#reminders=a/1/10:00"]) {
      expect(reminderKeyOf(hash), hash).toBeNull();
    }
  });
});
