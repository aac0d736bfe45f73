// Small lines of the chat's state under the thread: what the coach is doing while a reply is made
// (the context phase), the tokens the last reply used, what was shortened or summarised to fit
// the model's context, and skill folders that changed on disk during this session.

import { useTranslation } from "react-i18next";
import { contextNotes, runStatus, skillChangeList } from "../store";
import type { ChatState } from "./state";
import { Button } from "../design";

export function RunStatusLine({ chat }: { chat: Pick<ChatState, "runId" | "phase" | "usage" | "notices"> }) {
  const { t } = useTranslation();
  const status = runStatus(chat);
  const notes = contextNotes(chat.notices);
  if (!status && notes.compacted === 0 && notes.trimmed.length === 0) return null;
  return (
    <div className="run-status small muted" data-testid="run-status">
      {status?.kind === "phase" && <span>{t(`chat.phase.${status.phase}`)}</span>}
      {status?.kind === "usage" && (
        <span>
          {t("chat.usage", {
            total: status.usage.total_tokens,
            prompt: status.usage.prompt_tokens,
            completion: status.usage.completion_tokens,
          })}
        </span>
      )}
      {notes.compacted > 0 && <span>{t("chat.compacted", { n: notes.compacted })}</span>}
      {notes.trimmed.length > 0 && (
        <details>
          <summary>{t("chat.trimmed", { n: notes.trimmed.length })}</summary>
          <ul>
            {notes.trimmed.map((n, i) => (
              <li key={i}>{n}</li>
            ))}
          </ul>
        </details>
      )}
    </div>
  );
}

export function SkillChangesNotice({ changes, onSeen }: { changes: Record<string, string>; onSeen: () => void }) {
  const { t } = useTranslation();
  const list = skillChangeList(changes);
  if (list.length === 0) return null;
  return (
    <p className="skill-changes small" data-testid="chat-skill-changes">
      {t("chat.skillsChanged", { list: list.map((c) => t(`skills.change.${c.change}`, { name: c.name })).join(t("chat.listSeparator")) })}{" "}
      <Button type="button" variant="link" className="small" onClick={onSeen}>
        {t("chat.skillsSeen")}
      </Button>
    </p>
  );
}
