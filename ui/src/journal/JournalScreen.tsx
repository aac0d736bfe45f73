// The journal screen: every entry newest first (`journal_list`, with a search over text,
// feelings and tags), check-ins and the coach's entries marked as such, each entry's Markdown
// rendered with the chat's renderer (sanitised); a new entry, an edit, and a delete after a
// confirmation (the core keeps the state history, so it can be undone). Re-reads when the
// coach's tool changes the life coach's state during a turn.

import { useCallback, useEffect, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import * as client from "../client";
import { renderMarkdown } from "../chat/Markdown";
import { moodFace, moodKey } from "../checkin/mood";
import { Button, Card, ConfirmDialog, EmptyState, Toast } from "../design";
import { FailureLine } from "../errors/FailureLine";
import { FailureText } from "../errors/Failure";
import { SafetyNotice } from "../safety/SafetyNotice";
import { fromNotice, type SafetyView } from "../safety/view";
import { recovered, report } from "../store";
import type { CommandError, JournalEntryView } from "../wire";
import { markdownOf } from "./form";
import { JournalEditor } from "./JournalEditor";
import "./journal.css";

/** A new entry asked for by another screen (a new object each time); `prompt`: about it. */
export type WriteRequest = { prompt: string | null } | null;

type Editing = { entry: JournalEntryView | null; prompt: string | null; key: number } | null;

export function JournalScreen({ writeRequest = null }: { writeRequest?: WriteRequest }) {
  const { t } = useTranslation();
  const [entries, setEntries] = useState<JournalEntryView[] | null>(null);
  const [query, setQuery] = useState("");
  const [editing, setEditing] = useState<Editing>(null);
  const [removing, setRemoving] = useState<JournalEntryView | null>(null);
  /** The crisis notice of the entry saved last, when its text read as a risk. */
  const [safety, setSafety] = useState<SafetyView | null>(null);
  const [status, setStatus] = useState<{ tone: "ok"; text: string } | { tone: "danger"; failure: CommandError } | null>(null);
  const counter = useRef(0);
  const load = useCallback((q: string) => {
    client.journal.list(q.trim() || null).then(
      (l) => {
        setEntries(l);
        recovered("journal");
      },
      (e) => report("journal", e),
    );
  }, []);
  useEffect(() => load(query), [load, query]);
  useEffect(() => client.stateChanges.subscribe((c) => c.skill === "lifecoach" && load(query)), [load, query]);
  useEffect(() => {
    if (writeRequest) setEditing({ entry: null, prompt: writeRequest.prompt, key: ++counter.current });
  }, [writeRequest]);

  const remove = (entry: JournalEntryView) => {
    setRemoving(null);
    client.journal.remove(entry.id).then(
      () => {
        setStatus({ tone: "ok", text: t("journal.removed") });
        load(query);
      },
      (e) => setStatus({ tone: "danger", failure: client.toCommandError(e) }),
    );
  };
  return (
    <div className="page journal-page" data-testid="journal">
      <div className="card-head">
        <h1>{t("journal.title")}</h1>
        <Button variant="primary" onClick={() => setEditing({ entry: null, prompt: null, key: ++counter.current })} data-testid="journal-new">
          {t("journal.new")}
        </Button>
      </div>
      <FailureLine area="journal" />
      {editing && (
        <JournalEditor
          key={editing.key}
          entry={editing.entry}
          prompt={editing.prompt}
          onCancel={() => setEditing(null)}
          onSaved={(s) => {
            setEditing(null);
            setStatus({ tone: "ok", text: t("journal.saved") });
            setSafety(fromNotice(s.safety));
            load(query);
          }}
        />
      )}
      {status &&
        (status.tone === "ok" ? (
          <Toast as="p" tone="ok" data-testid="journal-status">
            {status.text}
          </Toast>
        ) : (
          <Toast as="p" tone="danger" data-testid="journal-status">
            {t("journal.removeFailed")} <FailureText failure={status.failure} />
          </Toast>
        ))}
      {safety && <SafetyNotice safety={safety} />}
      <input
        type="search"
        className="journal-search"
        aria-label={t("journal.search")}
        placeholder={t("journal.search")}
        value={query}
        data-testid="journal-search"
        onChange={(e) => setQuery(e.target.value)}
      />
      {entries && entries.length === 0 && !query.trim() && (
        <EmptyState
          title={t("journal.emptyTitle")}
          action={
            <Button variant="primary" onClick={() => setEditing({ entry: null, prompt: null, key: ++counter.current })}>
              {t("journal.new")}
            </Button>
          }
        >
          {t("journal.empty")}
        </EmptyState>
      )}
      {entries && entries.length === 0 && query.trim() && <p className="muted">{t("journal.noMatch", { query: query.trim() })}</p>}
      {entries && entries.length > 0 && (
        <ul className="cards journal-entries">
          {entries.map((e) => (
            <Entry
              key={e.id}
              entry={e}
              onEdit={() => setEditing({ entry: e, prompt: null, key: ++counter.current })}
              onRemove={() => setRemoving(e)}
            />
          ))}
        </ul>
      )}
      {removing && (
        <ConfirmDialog
          title={t("journal.deleteTitle")}
          cancelLabel={t("journal.cancel")}
          confirmLabel={t("journal.deleteConfirm")}
          onCancel={() => setRemoving(null)}
          onConfirm={() => remove(removing)}
          data-testid="journal-delete-dialog"
          confirmTestId="journal-delete-confirm"
          cancelTestId="journal-delete-cancel"
        >
          <p>{t("journal.deleteBody", { date: removing.date })}</p>
        </ConfirmDialog>
      )}
    </div>
  );
}

function Entry({ entry: e, onEdit, onRemove }: { entry: JournalEntryView; onEdit: () => void; onRemove: () => void }) {
  const { t } = useTranslation();
  const sep = t("chat.listSeparator");
  return (
    <Card as="li" tone={e.source === "coach" ? "plain" : "accent"} className={`journal-entry journal-${e.source}`} data-testid="journal-entry">
      <div className="card-head">
        <span className="journal-entry-date">{e.date}</span>
        <span className={`badge source-${e.source}`} data-testid="journal-source">
          {t(`journal.source.${e.source}`)}
        </span>
      </div>
      {(e.mood !== null || e.feelings.length > 0) && (
        <p className="journal-entry-meta small">
          {e.mood !== null && (
            <span>
              <span aria-hidden="true">{moodFace(e.mood)}</span> {t(moodKey(e.mood))}
            </span>
          )}
          {e.feelings.length > 0 && <span className="muted"> · {t("journal.feelingsOf", { list: e.feelings.join(sep) })}</span>}
        </p>
      )}
      {e.text && <div className="markdown journal-entry-text" dangerouslySetInnerHTML={{ __html: renderMarkdown(markdownOf(e)) }} />}
      <div className="card-head journal-entry-foot">
        <span className="muted small">
          {e.tags.length > 0 && t("journal.tagsOf", { list: e.tags.join(sep) })}
          {e.edited_at && <> · {t("journal.edited")}</>}
        </span>
        <span className="row-actions">
          <Button size="sm" onClick={onEdit} data-testid="journal-edit" aria-label={`${t("journal.edit")} ${e.date}`}>
            {t("journal.edit")}
          </Button>
          <Button size="sm" variant="ghost" onClick={onRemove} data-testid="journal-delete" aria-label={`${t("journal.delete")} ${e.date}`}>
            {t("journal.delete")}
          </Button>
        </span>
      </div>
    </Card>
  );
}

