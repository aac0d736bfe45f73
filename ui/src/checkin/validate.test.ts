import { describe, expect, it } from "vitest";
import { checkCheckin, checkEntry, isDate, localDay, ownFeelings, splitWords, words } from "./validate";

describe("check-in validation (the core's bounds)", () => {
  it("needs a mood from 1 to 5", () => {
    expect(checkCheckin({ mood: null, feelings: [], note: "" })).toEqual({ ok: false, problems: [{ field: "mood", key: "mood" }] });
    for (const bad of [0, 6, 2.5]) expect(checkCheckin({ mood: bad, feelings: [], note: "" }).ok).toBe(false);
    for (const good of [1, 2, 3, 4, 5]) expect(checkCheckin({ mood: good, feelings: [], note: "" }).ok).toBe(true);
  });

  it("sends trimmed feelings once each and an empty note as none", () => {
    expect(checkCheckin({ mood: 4, feelings: [" 平静", "专注", "平静", " "], note: "  " })).toEqual({
      ok: true,
      request: { mood: 4, feelings: ["平静", "专注"], note: null, date: null },
    });
    expect(checkCheckin({ mood: 3, feelings: [], note: " 散步了 " }, "2026-11-28")).toEqual({
      ok: true,
      request: { mood: 3, feelings: [], note: "散步了", date: "2026-11-28" },
    });
  });

  it("allows at most 12 feelings of at most 32 characters", () => {
    const twelve = Array.from({ length: 12 }, (_, i) => `f${i}`);
    expect(checkCheckin({ mood: 3, feelings: twelve, note: "" }).ok).toBe(true);
    expect(checkCheckin({ mood: 3, feelings: [...twelve, "f12"], note: "" })).toEqual({
      ok: false,
      problems: [{ field: "feelings", key: "tooMany", count: 13, max: 12 }],
    });
    // 32 CJK characters are fine (counted as characters, not bytes); 33 are not.
    expect(checkCheckin({ mood: 3, feelings: ["静".repeat(32)], note: "" }).ok).toBe(true);
    expect(checkCheckin({ mood: 3, feelings: ["静".repeat(33)], note: "" })).toEqual({
      ok: false,
      problems: [{ field: "feelings", key: "tooLong", word: "静".repeat(33), max: 32 }],
    });
  });

  it("allows a note of at most 500 characters, emoji counted as one", () => {
    expect(checkCheckin({ mood: 5, feelings: [], note: "🙂".repeat(500) }).ok).toBe(true);
    expect(checkCheckin({ mood: 5, feelings: [], note: "a".repeat(501) })).toEqual({
      ok: false,
      problems: [{ field: "note", key: "textLong", count: 501, max: 500 }],
    });
  });

  it("reports every problem at once", () => {
    const r = checkCheckin({ mood: null, feelings: ["x".repeat(40)], note: "n".repeat(600) });
    expect(r.ok ? [] : r.problems.map((p) => p.field)).toEqual(["mood", "feelings", "note"]);
  });
});

describe("journal entry validation", () => {
  const draft = { date: "", mood: null, feelings: "", tags: "", text: "今天 **很好**" };
  it("needs text; date, mood, feelings and tags are optional", () => {
    expect(checkEntry(draft, "2026-11-29")).toEqual({ ok: true, request: { date: null, mood: null, feelings: [], text: "今天 **很好**", tags: [] } });
    expect(checkEntry({ ...draft, text: "  " }, "2026-11-29")).toEqual({ ok: false, problems: [{ field: "text", key: "textEmpty" }] });
  });
  it("splits feelings and tags at ASCII and full-width commas", () => {
    const r = checkEntry({ ...draft, mood: 4, feelings: "平静，专注, 平静", tags: "工作、家人" }, "2026-11-29");
    expect(r).toEqual({ ok: true, request: { date: null, mood: 4, feelings: ["平静", "专注"], text: "今天 **很好**", tags: ["工作", "家人"] } });
  });
  it("refuses a date that is not a day or has not come", () => {
    expect(checkEntry({ ...draft, date: "2026-02-30" }, "2026-11-29")).toEqual({ ok: false, problems: [{ field: "date", key: "dateFormat", date: "2026-02-30" }] });
    expect(checkEntry({ ...draft, date: "2026-11-30" }, "2026-11-29")).toEqual({ ok: false, problems: [{ field: "date", key: "dateFuture", date: "2026-11-30" }] });
    expect(checkEntry({ ...draft, date: "2026-11-29" }, "2026-11-29").ok).toBe(true);
  });
  it("bounds tags and the text like the core", () => {
    const tags = Array.from({ length: 13 }, (_, i) => `t${i}`).join(",");
    expect(checkEntry({ ...draft, tags }, "2026-11-29")).toEqual({ ok: false, problems: [{ field: "tags", key: "tooMany", count: 13, max: 12 }] });
    expect(checkEntry({ ...draft, text: "a".repeat(20_001) }, "2026-11-29")).toEqual({
      ok: false,
      problems: [{ field: "text", key: "textLong", count: 20_001, max: 20_000 }],
    });
  });
});

describe("helpers", () => {
  it("words and dates", () => {
    expect(words([" a", "a", "", "b "])).toEqual(["a", "b"]);
    expect(splitWords("a，b、c,,")).toEqual(["a", "b", "c"]);
    expect(isDate("2024-02-29")).toBe(true);
    expect(isDate("2023-02-29")).toBe(false);
    expect(isDate("2024-2-9")).toBe(false);
    expect(localDay(new Date(2026, 0, 5, 23, 59))).toBe("2026-01-05");
  });
});

describe("the person's own feelings offered again", () => {
  it("are the recent ones the list lacks, newest first, each once, a few", () => {
    const recent = [{ feelings: ["散步", "平静"] }, { feelings: ["想家", "散步 "] }, { feelings: ["a", "b", "c", "d", "e"] }];
    expect(ownFeelings(recent, ["平静", "专注"])).toEqual(["散步", "想家", "a", "b", "c", "d"]);
    expect(ownFeelings([], ["平静"])).toEqual([]);
  });
});
