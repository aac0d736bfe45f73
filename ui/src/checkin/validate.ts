// The check-in's and the journal editor's checks before anything is sent, mirroring the core's
// bounds (crates/core/src/app/journal.rs: mood 1–5, at most 12 feelings or tags of at most 32
// characters each, a note of at most 500 characters, an entry's text of at most 20,000, a date
// `YYYY-MM-DD` that has come). Pure: no IO, no React; a problem is an i18n key and its values,
// worded by the form that shows it. The core checks again and its error is shown as it says.

import type { CheckinRequest, JournalAddRequest } from "../wire";

export const LIMITS = { words: 12, wordChars: 32, noteChars: 500, textChars: 20_000 } as const;

/** What is wrong, as a key under `checkin.problem` and the values its sentence names. */
export type Problem =
  | { field: "mood"; key: "mood" }
  | { field: "feelings" | "tags"; key: "tooMany"; count: number; max: number }
  | { field: "feelings" | "tags"; key: "tooLong"; word: string; max: number }
  | { field: "note" | "text"; key: "textLong"; count: number; max: number }
  | { field: "text"; key: "textEmpty" }
  | { field: "date"; key: "dateFormat" | "dateFuture"; date: string };

export type Checked<T> = { ok: true; request: T } | { ok: false; problems: Problem[] };

/** Characters as a person counts them (code points, as Rust's `chars()`), not UTF-16 units. */
const length = (s: string) => [...s].length;

/** Feelings or tags as the core keeps them: trimmed, empty ones out, each once, in order. */
export function words(list: readonly string[]): string[] {
  const out: string[] = [];
  for (const w of list.map((x) => x.trim()).filter(Boolean)) if (!out.includes(w)) out.push(w);
  return out;
}

/** A comma-separated line (ASCII or full-width commas, or 、) as words. */
export function splitWords(line: string): string[] {
  return words(line.split(/[,，、]/));
}

function wordProblems(list: string[], field: "feelings" | "tags"): Problem[] {
  const problems: Problem[] = [];
  const long = list.find((w) => length(w) > LIMITS.wordChars);
  if (long !== undefined) problems.push({ field, key: "tooLong", word: long, max: LIMITS.wordChars });
  if (list.length > LIMITS.words) problems.push({ field, key: "tooMany", count: list.length, max: LIMITS.words });
  return problems;
}

const validMood = (m: number | null): m is number => m !== null && Number.isInteger(m) && m >= 1 && m <= 5;

export interface CheckinDraft {
  mood: number | null;
  feelings: readonly string[];
  note: string;
}

/** A check-in ready to send, or what to fix: a mood is required; feelings and the note are optional. */
export function checkCheckin(draft: CheckinDraft, date: string | null = null): Checked<CheckinRequest> {
  const feelings = words(draft.feelings);
  const note = draft.note.trim();
  const problems: Problem[] = [];
  if (!validMood(draft.mood)) problems.push({ field: "mood", key: "mood" });
  problems.push(...wordProblems(feelings, "feelings"));
  if (length(note) > LIMITS.noteChars) problems.push({ field: "note", key: "textLong", count: length(note), max: LIMITS.noteChars });
  if (problems.length > 0 || !validMood(draft.mood)) return { ok: false, problems };
  return { ok: true, request: { mood: draft.mood, feelings, note: note || null, date } };
}

export interface EntryDraft {
  date: string;
  mood: number | null;
  feelings: string;
  tags: string;
  text: string;
}

/** A journal entry ready to send (`journal_add`; `journal_edit` takes the same fields), or
 * what to fix. `today` is the local day (`YYYY-MM-DD`): an entry is about a day that has come. */
export function checkEntry(draft: EntryDraft, today: string): Checked<JournalAddRequest> {
  const problems: Problem[] = [];
  const date = draft.date.trim();
  const text = draft.text.trim();
  if (date && !isDate(date)) problems.push({ field: "date", key: "dateFormat", date });
  else if (date && date > today) problems.push({ field: "date", key: "dateFuture", date });
  if (draft.mood !== null && !validMood(draft.mood)) problems.push({ field: "mood", key: "mood" });
  const feelings = splitWords(draft.feelings);
  const tags = splitWords(draft.tags);
  problems.push(...wordProblems(feelings, "feelings"), ...wordProblems(tags, "tags"));
  if (!text) problems.push({ field: "text", key: "textEmpty" });
  else if (length(text) > LIMITS.textChars) problems.push({ field: "text", key: "textLong", count: length(text), max: LIMITS.textChars });
  if (problems.length > 0) return { ok: false, problems };
  return { ok: true, request: { date: date || null, mood: draft.mood, feelings, text, tags } };
}

/** `YYYY-MM-DD` naming a real day. */
export function isDate(s: string): boolean {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(s);
  if (!m) return false;
  const d = new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3])));
  return d.getUTCFullYear() === Number(m[1]) && d.getUTCMonth() === Number(m[2]) - 1 && d.getUTCDate() === Number(m[3]);
}

/** The local day of `now` as `YYYY-MM-DD`. */
export function localDay(now: Date = new Date()): string {
  const p = (n: number) => String(n).padStart(2, "0");
  return `${now.getFullYear()}-${p(now.getMonth() + 1)}-${p(now.getDate())}`;
}

/** The person's own feelings from recent entries (newest first) that the offered list lacks,
 * each once, at most `max`: offered again as chips, so a word once added stays at hand. */
export function ownFeelings(recent: ReadonlyArray<{ feelings: readonly string[] }>, offered: readonly string[], max = 6): string[] {
  const out: string[] = [];
  for (const e of recent)
    for (const f of words(e.feelings)) if (!offered.includes(f) && !out.includes(f) && out.length < max) out.push(f);
  return out;
}
