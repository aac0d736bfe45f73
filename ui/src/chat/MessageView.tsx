// One message of the thread. Memoised: while a reply streams only that reply re-renders.

import { memo } from "react";
import { useTranslation } from "react-i18next";
import { StreamingMarkdown } from "./Markdown";
import { useSkillName } from "./skillName";
import type { Message } from "./state";
import { ToolActivity } from "./ToolActivity";

export const MessageView = memo(function MessageView({ message: m }: { message: Message }) {
  const { t } = useTranslation();
  if (m.role === "user") {
    return (
      <div className="msg msg-user" data-testid="msg-user">
        <div className="bubble">{m.text}</div>
      </div>
    );
  }
  const status = t(`chat.status.${m.status}`);
  return (
    <div className={`msg msg-assistant status-${m.status}`} data-testid="msg-assistant">
      {m.skill && <SkillBadge skill={m.skill} />}
      {m.reasoning && (
        <details className="reasoning">
          <summary>{m.status === "streaming" && !m.text ? t("chat.thinking") : t("chat.reasoning")}</summary>
          <div className="reasoning-text">{m.reasoning}</div>
        </details>
      )}
      {m.tools.map((tool) => (
        <ToolActivity key={tool.id} tool={tool} />
      ))}
      {m.text && <StreamingMarkdown text={m.text} epoch={m.textEpoch} />}
      {status && <div className="reply-status">{status}</div>}
      {m.unsaved && (
        <div className="reply-status reply-unsaved" data-testid="reply-unsaved">
          {t("chat.unsaved")}
        </div>
      )}
    </div>
  );
});

/** The skill this reply activated, by its display name in the UI's language. */
function SkillBadge({ skill }: { skill: string }) {
  const { t, i18n } = useTranslation();
  const name = useSkillName(skill, i18n.language);
  return (
    <div className="skill-badge" data-testid="skill-badge">
      {t("chat.skillActivated", { skill: name })}
    </div>
  );
}
