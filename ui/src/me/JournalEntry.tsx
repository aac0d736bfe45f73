// One journal entry of the coaching dashboard, editable in place: its date, mood (1–10), the
// lists (highlights, lessons, gratitude; one item a line) and free text. Saving hands the
// whole entry back; the caller writes it with `edit_state_entry` (the core replaces that one
// entry, checked by its place and `_created_at`). Esc cancels; focus returns to Edit.

import { useEffect, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import "./journal.css";
import { Button } from "../design";

type Obj = Record<string, unknown>;
const str = (v: unknown): string => (typeof v === "string" ? v : typeof v === "number" ? String(v) : "");
const strs = (v: unknown): string[] => (Array.isArray(v) ? v.map((x) => (typeof x === "string" ? x : JSON.stringify(x))) : []);

const LISTS = ["highlights", "lessons", "gratitude"] as const;
const TEXTS = ["tomorrow", "text"] as const;

interface Draft {
  date: string;
  mood: string;
  highlights: string;
  lessons: string;
  gratitude: string;
  tomorrow: string;
  text: string;
}

const draftOf = (e: Obj): Draft => ({
  date: str(e.date),
  mood: str(e.mood),
  highlights: strs(e.highlights).join("\n"),
  lessons: strs(e.lessons).join("\n"),
  gratitude: strs(e.gratitude).join("\n"),
  tomorrow: str(e.tomorrow),
  text: str(e.text),
});

/** The entry with the draft's fields: empty ones removed, lists one item a line, mood a number. */
export function entryFromDraft(entry: Obj, d: Draft): Obj {
  const out: Obj = Object.fromEntries(Object.entries(entry).filter(([k]) => !k.startsWith("_")));
  const set = (k: string, v: unknown, empty: boolean) => {
    if (empty) delete out[k];
    else out[k] = v;
  };
  set("date", d.date.trim(), !d.date.trim());
  const mood = Number(d.mood);
  set("mood", mood, !d.mood.trim() || !Number.isFinite(mood));
  for (const k of LISTS) {
    const items = d[k].split("\n").map((l) => l.trim()).filter(Boolean);
    set(k, items, items.length === 0);
  }
  for (const k of TEXTS) set(k, d[k].trim(), !d[k].trim());
  return out;
}

export function JournalEntry({ entry, onSave }: { entry: Obj; onSave: (entry: Obj) => Promise<void> }) {
  const { t } = useTranslation();
  const [draft, setDraft] = useState<Draft | null>(null);
  const [busy, setBusy] = useState(false);
  const editButton = useRef<HTMLButtonElement>(null);
  const wasEditing = useRef(false);
  useEffect(() => {
    if (draft === null && wasEditing.current) editButton.current?.focus();
    wasEditing.current = draft !== null;
  }, [draft]);
  const when = str(entry.date) || str(entry._created_at).slice(0, 10);
  const save = async () => {
    if (!draft) return;
    setBusy(true);
    try {
      await onSave(entryFromDraft(entry, draft));
      setDraft(null);
    } catch {
      // The dashboard shows why; the draft stays so nothing typed is lost.
    } finally {
      setBusy(false);
    }
  };
  if (!draft)
    return (
      <li data-testid="journal-entry">
        <span className="muted small">
          {when}
          {str(entry.mood) && ` · ${t(entry.mood_scale === 5 ? "me.mood5" : "me.mood", { mood: str(entry.mood) })}`}
          <Button ref={editButton} type="button" variant="link" aria-label={t("me.journal.editEntry", { date: when })} onClick={() => setDraft(draftOf(entry))}>
            {t("me.edit")}
          </Button>
        </span>
        <span>{[...strs(entry.highlights), ...strs(entry.lessons), ...strs(entry.gratitude), str(entry.text), str(entry.tomorrow)].filter(Boolean).join(" · ")}</span>
      </li>
    );
  const field = (k: keyof Draft, rows = 1) => (
    <label key={k}>
      {t(`me.journal.${k}`)}
      {rows > 1 ? (
        <textarea rows={rows} value={draft[k]} onChange={(e) => setDraft({ ...draft, [k]: e.target.value })} />
      ) : (
        <input value={draft[k]} type={k === "mood" ? "number" : "text"} min={k === "mood" ? 1 : undefined} max={k === "mood" ? 10 : undefined} onChange={(e) => setDraft({ ...draft, [k]: e.target.value })} />
      )}
    </label>
  );
  return (
    <li data-testid="journal-entry" className="journal-edit">
      <div
        className="journal-form"
        onKeyDown={(e) => {
          if (e.key === "Escape") setDraft(null);
          if (e.key === "Enter" && (e.ctrlKey || e.metaKey)) void save();
        }}
      >
        {field("date")}
        {field("mood")}
        {field("highlights", 2)}
        {field("lessons", 2)}
        {field("gratitude", 2)}
        {field("tomorrow")}
        {field("text", 2)}
        <span className="muted small">{t("me.onePerLine")}</span>
        <div className="actions start">
          <Button type="button" variant="primary" disabled={busy} onClick={() => void save()}>
            {t("me.save")}
          </Button>
          <Button type="button" onClick={() => setDraft(null)}>
            {t("me.cancel")}
          </Button>
        </div>
      </div>
    </li>
  );
}
