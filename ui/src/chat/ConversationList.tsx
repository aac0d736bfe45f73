// The conversation list: newest first, search, rename, delete with confirmation.

import { useState } from "react";
import { useTranslation } from "react-i18next";
import { FailureLine } from "../errors/FailureLine";
import type { ConversationSummary } from "../wire";

export function ConversationList(props: {
  items: ConversationSummary[];
  activeId: string | null;
  onOpen: (id: string | null) => void;
  onSearch: (query: string) => void;
  onRename: (id: string, title: string) => void;
  onDelete: (id: string) => void;
}) {
  const { t } = useTranslation();
  const [editing, setEditing] = useState<string | null>(null);
  const [confirming, setConfirming] = useState<string | null>(null);
  const items = [...props.items].sort((a, b) => b.updated_at.localeCompare(a.updated_at));
  return (
    <nav className="conversations" aria-label={t("conversations.title")}>
      <button className="primary new" data-testid="new-conversation" onClick={() => props.onOpen(null)}>
        + {t("conversations.new")}
      </button>
      <input
        type="search"
        aria-label={t("conversations.search")}
        placeholder={t("conversations.search")}
        onChange={(e) => props.onSearch(e.target.value)}
      />
      <FailureLine area="conversations" />
      {items.length === 0 && <p className="muted">{t("conversations.empty")}</p>}
      <ul>
        {items.map((c) => (
          <li key={c.id} data-testid="conversation-item" className={c.id === props.activeId ? "active" : ""}>
            {editing === c.id ? (
              <input
                autoFocus
                defaultValue={c.title ?? ""}
                aria-label={t("conversations.rename")}
                onKeyDown={(e) => {
                  if (e.key === "Enter") {
                    props.onRename(c.id, e.currentTarget.value);
                    setEditing(null);
                  } else if (e.key === "Escape") setEditing(null);
                }}
                onBlur={() => setEditing(null)}
              />
            ) : (
              <button className="link title" onClick={() => props.onOpen(c.id)}>
                {c.title || t("conversations.untitled")}
              </button>
            )}
            {confirming === c.id ? (
              <span className="confirm">
                {t("conversations.confirmDelete", { title: c.title || t("conversations.untitled") })}
                <button className="danger" onClick={() => (props.onDelete(c.id), setConfirming(null))}>
                  {t("conversations.delete")}
                </button>
                <button onClick={() => setConfirming(null)}>✕</button>
              </span>
            ) : (
              <span className="row-actions">
                <button aria-label={t("conversations.rename")} title={t("conversations.rename")} onClick={() => setEditing(c.id)}>
                  ✎
                </button>
                <button aria-label={t("conversations.delete")} title={t("conversations.delete")} onClick={() => setConfirming(c.id)}>
                  🗑
                </button>
              </span>
            )}
          </li>
        ))}
      </ul>
    </nav>
  );
}
