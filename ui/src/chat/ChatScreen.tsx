// The chat screen: conversation list, the thread, the plan, the approval dialog, the error
// banner and the composer. Esc stops a running reply.

import { useCallback, useEffect, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import * as client from "../client";
import { ApprovalDialog } from "./ApprovalDialog";
import { Composer } from "./Composer";
import { ConversationList } from "./ConversationList";
import { ErrorBanner } from "./ErrorBanner";
import { MessageView } from "./MessageView";
import { PlanView } from "./PlanView";
import { useChat } from "./useChat";

/** Messages shown at once; older ones come in pages (nothing loads a whole history into the DOM). */
const PAGE = 100;

export function ChatScreen({ onOpenSettings }: { onOpenSettings: () => void }) {
  const { t } = useTranslation();
  const [list, setList] = useState<client.ConversationSummary[]>([]);
  const [shown, setShown] = useState(PAGE);
  const [dismissed, setDismissed] = useState<object | null>(null);
  const refresh = useCallback(() => {
    client.conversations.list().then(setList, () => undefined);
  }, []);
  const chat = useChat(refresh);
  const { state } = chat;
  const running = state.runId !== null;
  const threadEnd = useRef<HTMLDivElement>(null);

  useEffect(refresh, [refresh]);
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.key === "Escape" && running) void chat.stop();
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, [running, chat]);
  const lastText = state.messages.at(-1);
  useEffect(() => {
    threadEnd.current?.scrollIntoView({ block: "end" });
  }, [lastText]);

  const last = state.messages.at(-1);
  const canRetry = !!state.conversationId && !!last && (last.role === "user" || last.status !== "done");
  const visible = state.messages.slice(-shown);
  return (
    <div className="chat-screen">
      <ConversationList
        items={list}
        activeId={state.conversationId}
        onOpen={(id) => {
          setShown(PAGE);
          void chat.open(id);
        }}
        onSearch={(q) =>
          (q.trim() ? client.conversations.search(q) : client.conversations.list()).then(setList, () => undefined)
        }
        onRename={(id, title) => void client.conversations.rename(id, title).then(refresh)}
        onDelete={(id) =>
          void client.conversations.remove(id).then(() => {
            if (id === state.conversationId) void chat.open(null);
            refresh();
          })
        }
      />
      <main className="thread-pane">
        {state.plan && state.plan.steps.length > 0 && <PlanView plan={state.plan} />}
        <div className="thread" aria-live="polite">
          {state.messages.length > shown && (
            <button className="link" onClick={() => setShown((n) => n + PAGE)}>
              ↑ {state.messages.length - shown}
            </button>
          )}
          {state.messages.length === 0 && <p className="empty">{t("chat.empty")}</p>}
          {visible.map((m) => (
            <MessageView key={m.key} message={m} />
          ))}
          <div ref={threadEnd} />
        </div>
        {state.error && state.error !== dismissed && (
          <ErrorBanner
            error={state.error}
            onOpenSettings={onOpenSettings}
            onRetry={canRetry && !running ? () => void chat.retry() : null}
            onDismiss={() => setDismissed(state.error)}
          />
        )}
        <Composer running={running} canRetry={canRetry} onSend={(m) => void chat.send(m)} onStop={() => void chat.stop()} onRetry={() => void chat.retry()} />
      </main>
      {state.approval && (
        <ApprovalDialog approval={state.approval} onDecide={(ok) => state.approval && void chat.decide(state.approval.requestId, ok)} />
      )}
    </div>
  );
}
