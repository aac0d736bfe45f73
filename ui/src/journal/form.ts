// The journal editor's form and the entries it writes: an entry as the editor's draft, a new
// draft (optionally about a prompt, quoted at the top), and a checked draft as `journal_edit`'s
// request (every field given, so what the form shows is what is stored). Pure.

import type { EntryDraft } from "../checkin/validate";
import type { JournalAddRequest, JournalEditRequest, JournalEntryView } from "../wire";

export function draftOf(entry: JournalEntryView): EntryDraft {
  return { date: entry.date, mood: entry.mood, feelings: entry.feelings.join(", "), tags: entry.tags.join(", "), text: entry.text };
}

/** A new entry for `today`; about `prompt` when given (quoted as the entry's first line). */
export function newDraft(today: string, prompt: string | null = null): EntryDraft {
  return { date: today, mood: null, feelings: "", tags: "", text: prompt ? `> ${prompt}\n\n` : "" };
}

export function editRequest(id: string, r: JournalAddRequest, today: string): JournalEditRequest {
  return { id, date: r.date ?? today, mood: r.mood, feelings: r.feelings, text: r.text, tags: r.tags };
}

/** The entry's text as Markdown: a coach's entry without text of its own is its parts one per
 * line, which stay lines (hard breaks) instead of running together into one paragraph. */
export function markdownOf(e: JournalEntryView): string {
  return e.source === "coach" ? e.text.replace(/([^\n])\n(?=[^\n])/g, "$1  \n") : e.text;
}
