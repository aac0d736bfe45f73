import { describe, expect, it } from "vitest";
import { checkEntry } from "../checkin/validate";
import type { JournalEntryView } from "../wire";
import { draftOf, editRequest, markdownOf, newDraft } from "./form";

const entry: JournalEntryView = {
  id: "2026-11-28T21:00:00Z",
  date: "2026-11-28",
  mood: 4,
  feelings: ["平静", "专注"],
  text: "走了很久的路。",
  tags: ["散步"],
  source: "person",
  edited_at: null,
};

describe("the journal editor's form", () => {
  it("round-trips an entry through the draft to an edit of every field", () => {
    const checked = checkEntry(draftOf(entry), "2026-11-29");
    expect(checked.ok).toBe(true);
    if (!checked.ok) return;
    expect(editRequest(entry.id, checked.request, "2026-11-29")).toEqual({
      id: entry.id,
      date: "2026-11-28",
      mood: 4,
      feelings: ["平静", "专注"],
      text: "走了很久的路。",
      tags: ["散步"],
    });
  });
  it("starts a new entry about a prompt with the prompt quoted", () => {
    expect(newDraft("2026-11-29", "今天你想感谢谁？")).toEqual({ date: "2026-11-29", mood: null, feelings: "", tags: "", text: "> 今天你想感谢谁？\n\n" });
    expect(newDraft("2026-11-29").text).toBe("");
  });
});

describe("an entry's Markdown", () => {
  it("keeps a coach's lines as lines; the person's Markdown as written", () => {
    expect(markdownOf({ ...entry, source: "coach", text: "完成了作品集\n早上先做最难的事" })).toBe("完成了作品集  \n早上先做最难的事");
    expect(markdownOf({ ...entry, text: "a\nb\n\n- c" })).toBe("a\nb\n\n- c");
  });
});
