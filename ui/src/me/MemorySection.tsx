// "What my coach remembers": every extracted memory item with its kind and where it came from
// (a link to the conversation), editable in the person's own words and forgettable; the memory
// switch; export to a file. The rules (merging, forgetting for good) are the core's.

import { useCallback, useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import * as client from "../client";
import { FailureText } from "../errors/Failure";
import type { CommandError, MemoryItemView, MemoryList } from "../wire";
import { Button, Card, EmptyState, Toast } from "../design";

export function MemorySection({ onOpenConversation }: { onOpenConversation: (id: string) => void }) {
  const { t } = useTranslation();
  const [list, setList] = useState<MemoryList | null>(null);
  const [error, setError] = useState<CommandError | null>(null);
  const [note, setNote] = useState<string | null>(null);
  const load = useCallback(() => {
    client.memory.list().then(setList, (e) => setError(client.toCommandError(e)));
  }, []);
  useEffect(load, [load]);
  /** Runs a command and re-reads the list; false (and the error shown) when it failed. */
  const attempt = async (f: () => Promise<unknown>) => {
    setError(null);
    setNote(null);
    try {
      await f();
      load();
      return true;
    } catch (e) {
      setError(client.toCommandError(e));
      return false;
    }
  };
  const exportFile = () =>
    attempt(async () => {
      const saved = await client.memory.exportToFile();
      setNote(saved.path ? t("protocol.saved", { path: saved.path }) : t("protocol.notSaved"));
    });

  return (
    <Card as="section" className="memory" aria-labelledby="me-memory">
      <div className="card-head">
        <h2 id="me-memory">{t("me.memory.title")}</h2>
        <div className="actions">
          <label className="row switch">
            <input
              type="checkbox"
              role="switch"
              data-testid="memory-switch"
              checked={list?.memory ?? false}
              disabled={!list}
              onChange={(e) => void attempt(() => client.memory.setEnabled(e.target.checked))}
            />
            {t("me.memory.switch")}
          </label>
          <Button type="button" data-testid="memory-export" onClick={() => void exportFile()}>
            {t("me.memory.export")}
          </Button>
        </div>
      </div>
      <p className="muted small">{list && !list.memory ? t("me.memory.off") : t("me.memory.intro")}</p>
      {note && (
        <Toast as="p" tone="ok" className="small">
          {note}
        </Toast>
      )}
      {error && (
        <Toast as="p" tone="danger">
          <FailureText failure={error} />
        </Toast>
      )}
      {list && list.items.length === 0 && <EmptyState>{t("me.memory.empty")}</EmptyState>}
      <ul className="memory-list">
        {list?.items.map((item) => (
          <MemoryRow
            key={item.id}
            item={item}
            onEdit={(text) => attempt(() => client.memory.edit(item.id, text))}
            onForget={() => void attempt(() => client.memory.forget(item.id))}
            onOpenConversation={onOpenConversation}
          />
        ))}
      </ul>
    </Card>
  );
}

interface RowProps {
  item: MemoryItemView;
  onEdit: (text: string) => Promise<boolean>;
  onForget: () => void;
  onOpenConversation: (id: string) => void;
}

function MemoryRow({ item, onEdit, onForget, onOpenConversation }: RowProps) {
  const { t } = useTranslation();
  const [draft, setDraft] = useState<string | null>(null);
  const source = item.sources[0];
  return (
    <li className="memory-item" data-testid="memory-item">
      <div className="card-head">
        <span className="kind">{t(`me.memory.kind.${item.kind}`)}</span>
        <span className="muted small">
          {t("me.memory.seen", { at: item.last_seen.slice(0, 10) })}
          {item.edited && ` · ${t("me.memory.edited")}`}
        </span>
      </div>
      {draft === null ? (
        <p className="memory-text">{item.text}</p>
      ) : (
        <form
          className="field-edit"
          onSubmit={(e) => {
            e.preventDefault();
            if (draft.trim()) void onEdit(draft.trim()).then((ok) => ok && setDraft(null));
          }}
        >
          <textarea aria-label={t("me.memory.editLabel")} rows={2} value={draft} autoFocus onChange={(e) => setDraft(e.target.value)} onKeyDown={(e) => e.key === "Escape" && setDraft(null)} />
          <div className="actions start">
            <Button type="submit" variant="primary">
              {t("me.save")}
            </Button>
            <Button type="button" onClick={() => setDraft(null)}>
              {t("me.cancel")}
            </Button>
          </div>
        </form>
      )}
      <div className="memory-foot">
        {source ? (
          <Button type="button" variant="link" className="small" onClick={() => onOpenConversation(source.conversation_id)}>
            {t("me.memory.source")}
          </Button>
        ) : (
          <span className="muted small">{t("me.memory.noSource")}</span>
        )}
        {draft === null && (
          <span className="row-actions">
            <Button type="button" data-testid="memory-edit" onClick={() => setDraft(item.text)}>
              {t("me.edit")}
            </Button>
            <Button type="button" data-testid="memory-forget" variant="danger" onClick={onForget}>
              {t("me.memory.forget")}
            </Button>
          </span>
        )}
      </div>
    </li>
  );
}
