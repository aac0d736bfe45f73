// The journal editor: a Markdown text with its date, mood (optional, five-point) and comma-
// separated feelings and tags, for a new entry (`journal_add`, optionally about today's prompt)
// or one being edited (`journal_edit`, every field). Checked first by the pure `checkEntry`; the
// core's refusal or failure is shown under the form as it says it.

import { useEffect, useRef, useState, type FormEvent } from "react";
import { useTranslation } from "react-i18next";
import * as client from "../client";
import { MOODS, moodFace, moodKey } from "../checkin/mood";
import { ProblemList } from "../checkin/ProblemList";
import { checkEntry, localDay, type EntryDraft, type Problem } from "../checkin/validate";
import { Button, Card, Field, Tabs, Toast } from "../design";
import { FailureText } from "../errors/Failure";
import type { CommandError, JournalEntryView, JournalSaved } from "../wire";
import { draftOf, editRequest, newDraft } from "./form";

interface Props {
  /** The entry edited; null: a new one. */
  entry: JournalEntryView | null;
  /** A new entry about this prompt. */
  prompt: string | null;
  /** The saved entry, with the crisis notice the core sent when its text reads as a risk. */
  onSaved: (saved: JournalSaved) => void;
  onCancel: () => void;
}

export function JournalEditor({ entry, prompt, onSaved, onCancel }: Props) {
  const { t } = useTranslation();
  const today = localDay();
  const [draft, setDraft] = useState<EntryDraft>(() => (entry ? draftOf(entry) : newDraft(today, prompt)));
  const [problems, setProblems] = useState<Problem[]>([]);
  const [failure, setFailure] = useState<CommandError | null>(null);
  const [busy, setBusy] = useState(false);
  const text = useRef<HTMLTextAreaElement>(null);
  const set = (patch: Partial<EntryDraft>) => setDraft((d) => ({ ...d, ...patch }));
  // The caret starts at the end, below a quoted prompt, ready to write.
  useEffect(() => {
    const box = text.current;
    if (box) box.setSelectionRange(box.value.length, box.value.length);
  }, []);

  const save = (e: FormEvent) => {
    e.preventDefault();
    setFailure(null);
    const checked = checkEntry(draft, today);
    if (!checked.ok) {
      setProblems(checked.problems);
      return;
    }
    setProblems([]);
    setBusy(true);
    const done = entry ? client.journal.edit(editRequest(entry.id, checked.request, today)) : client.journal.add(checked.request);
    done.then(
      (saved) => {
        setBusy(false);
        onSaved(saved);
      },
      (err) => {
        setBusy(false);
        setFailure(client.toCommandError(err));
      },
    );
  };
  const title = entry ? t("journal.editTitle", { date: entry.date }) : t("journal.newTitle");
  return (
    <Card as="section" tone="accent" className="journal-editor" data-testid="journal-editor" aria-labelledby="journal-editor-title">
      <form onSubmit={save} noValidate>
        <h2 id="journal-editor-title">{title}</h2>
        <div className="journal-editor-fields">
          <Field label={t("journal.date")} hint={t("journal.dateHint")}>
            <input type="date" value={draft.date} max={today} data-testid="journal-date" onChange={(e) => set({ date: e.target.value })} />
          </Field>
          <Field label={t("journal.feelings")} hint={t("journal.wordsHint")}>
            <input value={draft.feelings} data-testid="journal-feelings" onChange={(e) => set({ feelings: e.target.value })} />
          </Field>
          <Field label={t("journal.tags")} hint={t("journal.wordsHint")}>
            <input value={draft.tags} data-testid="journal-tags" onChange={(e) => set({ tags: e.target.value })} />
          </Field>
        </div>
        <ProblemList problems={problems} field="date" />
        <ProblemList problems={problems} field="feelings" />
        <ProblemList problems={problems} field="tags" />
        <div className="journal-mood">
          <span className="ds-field-label">{t("journal.mood")}</span>
          <Tabs
            kind="choice"
            label={t("journal.mood")}
            value={draft.mood === null ? "none" : String(draft.mood)}
            onChange={(v) => set({ mood: v === "none" ? null : Number(v) })}
            items={[
              { value: "none", label: t("journal.noMood"), testId: "journal-mood-none" },
              ...MOODS.map((m) => ({
                value: String(m),
                testId: `journal-mood-${m}`,
                label: (
                  <>
                    <span aria-hidden="true">{moodFace(m)}</span> {t(moodKey(m))}
                  </>
                ),
              })),
            ]}
          />
        </div>
        <Field label={t("journal.text")} hint={t("journal.textHint")}>
          <textarea ref={text} rows={10} value={draft.text} data-testid="journal-text" onChange={(e) => set({ text: e.target.value })} autoFocus />
        </Field>
        <ProblemList problems={problems} field="text" />
        {failure && (
          <Toast as="p" tone="danger" className="small" data-testid="journal-failed">
            {t("journal.failed")} <FailureText failure={failure} />
          </Toast>
        )}
        <div className="actions start">
          <Button type="submit" variant="primary" disabled={busy} data-testid="journal-save">
            {t("journal.save")}
          </Button>
          <Button type="button" onClick={onCancel} data-testid="journal-cancel">
            {t("journal.cancel")}
          </Button>
        </div>
      </form>
    </Card>
  );
}
