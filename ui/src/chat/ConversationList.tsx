// The conversation list: newest first, search, rename, delete with confirmation.

import { memo, useState } from "react";
import { useTranslation } from "react-i18next";
import { FailureLine } from "../errors/FailureLine";
import type { ConversationSummary } from "../wire";
import { Button, EmptyState } from "../design";

export const ConversationList = memo(function ConversationList(props: {
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
      <Button variant="primary" className="new" data-testid="new-conversation" onClick={() => props.onOpen(null)}>
        + {t("conversations.new")}
      </Button>
      <input
        type="search"
        aria-label={t("conversations.search")}
        placeholder={t("conversations.search")}
        onChange={(e) => props.onSearch(e.target.value)}
      />
      <FailureLine area="conversations" />
      {items.length === 0 && <EmptyState>{t("conversations.empty")}</EmptyState>}
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
              <Button variant="link" className="title" onClick={() => props.onOpen(c.id)}>
                {c.title || t("conversations.untitled")}
              </Button>
            )}
            {confirming === c.id ? (
              <span className="confirm">
                {t("conversations.confirmDelete", { title: c.title || t("conversations.untitled") })}
                <Button variant="danger" onClick={() => (props.onDelete(c.id), setConfirming(null))}>
                  {t("conversations.delete")}
                </Button>
                <Button onClick={() => setConfirming(null)}>✕</Button>
              </span>
            ) : (
              <span className="row-actions">
                <Button variant="ghost" size="sm" aria-label={t("conversations.rename")} title={t("conversations.rename")} onClick={() => setEditing(c.id)}>
                  ✎
                </Button>
                <Button variant="ghost" size="sm" aria-label={t("conversations.delete")} title={t("conversations.delete")} onClick={() => setConfirming(c.id)}>
                  🗑
                </Button>
              </span>
            )}
          </li>
        ))}
      </ul>
    </nav>
  );
});
