// The mock shell's journal (`checkin`, `journal_add`, `journal_list`, `journal_edit`,
// `journal_remove`) over the life coach's stored `journal` list — the same array Me's dashboard
// shows — as the core keeps it (crates/core/src/app/journal.rs): newest first, an entry's id is
// its `_created_at`, the person's entries say `source: "journal"`, a check-in `"checkin"`, the
// coach's none (its ten-point moods shown on the five-point scale). The core's checks and
// messages are repeated for what the UI lets through. `?fail=checkin` (the backend's switch)
// makes a command fail as a locked database does.

import type { JournalEntryView, JournalSaved, JournalSource } from "../wire";
import { reply, type Call } from "./call";
import { noticeFor } from "./scripts";

type Stored = Record<string, unknown>;

const invalid = (message: string) => ({ error: { kind: "invalid_input", message }, hint: null });

/** The local day of `now`, `YYYY-MM-DD`. */
export function localDay(now: Date = new Date()): string {
  const p = (n: number) => String(n).padStart(2, "0");
  return `${now.getFullYear()}-${p(now.getMonth() + 1)}-${p(now.getDate())}`;
}

function strings(v: unknown): string[] {
  if (Array.isArray(v)) return v.filter((x): x is string => typeof x === "string");
  if (typeof v === "string") return v.split(/[,，、]/).map((s) => s.trim()).filter(Boolean);
  return [];
}

function textOf(e: Stored): string {
  if (typeof e.text === "string") return e.text;
  const lines: string[] = [];
  for (const key of ["highlights", "lessons", "gratitude", "tomorrow", "note", "summary"]) {
    const v = e[key];
    if (typeof v === "string" && v.trim()) lines.push(v.trim());
    else if (Array.isArray(v)) lines.push(...strings(v));
  }
  return lines.join("\n");
}

/** A stored entry as the journal shows it (null: no stamp, not an entry). */
export function view(e: Stored): JournalEntryView | null {
  if (typeof e._created_at !== "string") return null;
  const source: JournalSource = e.source === "checkin" ? "checkin" : e.source === "journal" ? "person" : "coach";
  let mood: number | null = null;
  if (typeof e.mood === "number") {
    const five = e.mood_scale === 5 ? Math.round(e.mood) : Math.ceil(e.mood / 2);
    mood = five >= 1 && five <= 5 ? five : null;
  }
  return {
    id: e._created_at,
    date: typeof e.date === "string" ? e.date : localDay(new Date(e._created_at)),
    mood,
    feelings: strings(e.feelings),
    text: textOf(e),
    tags: strings(e.tags),
    source,
    edited_at: typeof e._edited_at === "string" ? e._edited_at : null,
  };
}

function mood(m: number): number {
  if (!Number.isInteger(m) || m < 1 || m > 5) throw invalid(`mood ${m} is out of range: use 1 (very low) to 5 (very good)`);
  return m;
}

function words(list: readonly string[], what: string): string[] {
  const out: string[] = [];
  for (const w of list.map((x) => x.trim()).filter(Boolean)) {
    if ([...w].length > 32) throw invalid(`${what} "${w}" is longer than 32 characters: use a word or two`);
    if (!out.includes(w)) out.push(w);
  }
  if (out.length > 12) throw invalid(`${out.length} ${what}s given: at most 12`);
  return out;
}

function bounded(text: string, what: string, max: number): string {
  const n = [...text].length;
  if (n > max) throw invalid(`${what} has ${n} characters: at most ${max}`);
  return text;
}

function entryDate(date: string | null): string {
  const today = localDay();
  if (!date) return today;
  if (!/^\d{4}-\d{2}-\d{2}$/.test(date.trim())) throw invalid(`date "${date}" is not a date: write it as YYYY-MM-DD`);
  if (date.trim() > today)
    throw invalid(`date ${date} is in the future (today is ${today}): a journal entry is about a day that has come`);
  return date.trim();
}

/** `journal`: the stored list, newest first (shared with Me's dashboard). */
export function createJournal(journal: () => Stored[]) {
  let stamps = 0;
  /** A creation stamp unique in the list (the core's are unique too). */
  const stamp = () => new Date(Date.now() + ++stamps).toISOString();
  const find = (id: string): [number, Stored] => {
    const list = journal();
    const i = list.findIndex((e) => e._created_at === id);
    const at = list[i];
    if (!at)
      throw invalid(`no journal entry with id ${id}: list the ids with \`vibe journal list\` (it may have been removed)`);
    return [i, at];
  };
  /** The saved entry, with a notice when its text is at risk (as the core answers). */
  const saved = (entry: JournalEntryView, screen = true): JournalSaved => {
    const safety = screen ? noticeFor(entry.text) : null;
    return safety ? { entry, safety } : { entry };
  };
  const add = (e: Stored): JournalSaved => {
    const stored = { ...e, _created_at: stamp() };
    journal().unshift(stored);
    return saved(view(stored) as JournalEntryView);
  };

  function handle({ cmd, request }: Call): unknown {
    switch (cmd) {
      case "checkin":
        return reply(
          cmd,
          add({
            date: entryDate(request.date),
            mood: mood(request.mood),
            mood_scale: 5,
            feelings: words(request.feelings, "feeling"),
            text: bounded((request.note ?? "").trim(), "the check-in's note", 500),
            source: "checkin",
          }),
        );
      case "journal_add": {
        const text = request.text.trim();
        if (!text) throw invalid("a journal entry needs some text: write what happened or how it felt");
        const e: Stored = { date: entryDate(request.date) };
        if (request.mood !== null) Object.assign(e, { mood: mood(request.mood), mood_scale: 5 });
        Object.assign(e, {
          feelings: words(request.feelings, "feeling"),
          text: bounded(text, "the entry's text", 20_000),
          tags: words(request.tags, "tag"),
          source: "journal",
        });
        return reply(cmd, add(e));
      }
      case "journal_list": {
        const q = request.query?.trim().toLowerCase() || null;
        const entries = journal()
          .map(view)
          .filter((e): e is JournalEntryView => e !== null)
          .filter((e) => (!request.since || e.date >= request.since) && (!request.until || e.date <= request.until))
          .filter((e) => !q || e.text.toLowerCase().includes(q) || [...e.feelings, ...e.tags].some((w) => w.toLowerCase().includes(q)))
          .slice(0, request.limit ?? undefined);
        return reply(cmd, { entries });
      }
      case "journal_edit": {
        const [i, at] = find(request.id);
        const e: Stored = { ...at };
        if (request.date !== null) e.date = entryDate(request.date);
        if (request.mood !== null) Object.assign(e, { mood: mood(request.mood), mood_scale: 5 });
        if (request.feelings !== null) e.feelings = words(request.feelings, "feeling");
        if (request.text !== null) e.text = bounded(request.text.trim(), "the entry's text", 20_000);
        if (request.tags !== null) e.tags = words(request.tags, "tag");
        e._edited_at = new Date().toISOString();
        journal()[i] = e;
        return reply(cmd, saved(view(e) as JournalEntryView, request.text !== null));
      }
      case "journal_remove": {
        const [i, at] = find(request.id);
        journal().splice(i, 1);
        return reply(cmd, { entry: view(at) as JournalEntryView });
      }
      default:
        return undefined;
    }
  }
  return { handle, entries: () => journal().map(view).filter((e): e is JournalEntryView => e !== null) };
}
