import { describe, expect, it } from "vitest";
import { entryFromDraft } from "./JournalEntry";
import { parseTimes } from "./PreferencesSection";

describe("a journal entry from its edited fields", () => {
  it("keeps unknown fields, drops the app's and empty ones, splits lists by line, reads the mood as a number", () => {
    const entry = { date: "2026-11-24", mood: 5, highlights: ["a"], weather: "rain", _created_at: "2026-11-24T21:00:00Z" };
    const out = entryFromDraft(entry, { date: "2026-11-24", mood: " 8 ", highlights: "a\n\n b ", lessons: "", gratitude: "friends", tomorrow: "  ", text: "fine" });
    expect(out).toEqual({ date: "2026-11-24", mood: 8, highlights: ["a", "b"], gratitude: ["friends"], text: "fine", weather: "rain" });
  });
});

describe("reminder times typed in Me", () => {
  it("are split on commas (also Chinese ones), semicolons and spaces", () => {
    expect(parseTimes("09:30, 12:00，18:00；21:00  22:00")).toEqual(["09:30", "12:00", "18:00", "21:00", "22:00"]);
    expect(parseTimes("  ")).toEqual([]);
  });
});
