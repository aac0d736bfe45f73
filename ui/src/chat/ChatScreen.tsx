// The chat screen: conversation list, the thread, the plan, the approval dialog, the error
// banner and the composer, and the conversation's protocol (invitation, progress, completion).
// Esc stops a running reply.

import { useCallback, useEffect, useState } from "react";
import * as client from "../client";
import { FailureLine } from "../errors/FailureLine";
import { ProtocolPanel } from "../protocols/ProtocolPanel";
import { ReminderQuestion } from "../reminders/ReminderQuestion";
import type { ConversationSummary, ReminderView } from "../wire";
import { ApprovalDialog } from "./ApprovalDialog";
import { Composer } from "./Composer";
import { ConversationList } from "./ConversationList";
import { ErrorBanner } from "./ErrorBanner";
import { PlanView } from "./PlanView";
import { SafetyNotice } from "../safety/SafetyNotice";
import { Starters } from "./Starters";
import { RunStatusLine, SkillChangesNotice } from "./StatusLines";
import { Thread } from "./Thread";
import { useChat } from "./useChat";
import { recovered, report, store } from "../store";

/** The conversation list's commands: a success clears the list's failure line, a failure fills it. */
function listed<T>(p: Promise<T>): Promise<T | void> {
  return p.then(
    (v) => {
      recovered("conversations");
      return v;
    },
    (e) => report("conversations", e),
  );
}

interface Props {
  onOpenSettings: () => void;
  /** Open this conversation (another screen linked to it; null: a new one), at a reminder's
   * question when one is given; a new object each time. */
  openRequest?: { id: string | null; reminder?: ReminderView } | null;
}

export function ChatScreen({ onOpenSettings, openRequest = null }: Props) {
  const [list, setList] = useState<ConversationSummary[]>([]);
  const [dismissed, setDismissed] = useState<object | null>(null);
  /** How many messages the thread had when a protocol was started from its card. */
  const refresh = useCallback(() => {
    void listed(client.conversations.list()).then((l) => l && setList(l));
  }, []);
  const chat = useChat(refresh);
  const { state } = chat;
  const running = state.runId !== null;

  useEffect(refresh, [refresh]);
  const { open } = chat;
  /** The reminder question the next message answers (opened from the reminder card). */
  const [reminder, setReminder] = useState<ReminderView | null>(null);
  /** A connection's prompt put into the composer (a new object each time). */
  const [fill, setFill] = useState<{ text: string } | null>(null);
  useEffect(() => {
    if (!openRequest) return;
    setReminder(openRequest.reminder ?? null);
    void open(openRequest.id).then(() => {
      if (openRequest.reminder) document.querySelector<HTMLTextAreaElement>("[data-testid=composer]")?.focus();
    });
  }, [openRequest, open]);
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.key === "Escape" && running) void chat.stop();
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, [running, chat.stop]);
  // Stable callbacks: the list and the composer are memoised, so a streamed delta (which
  // re-renders this screen) does not re-render them.
  const { send: chatSend, stop: chatStop, retry: chatRetry } = chat;
  const send = useCallback(
    (m: string) => {
      setReminder(null);
      void chatSend(m);
    },
    [chatSend],
  );
  const stop = useCallback(() => void chatStop(), [chatStop]);
  const retry = useCallback(() => void chatRetry(), [chatRetry]);
  const fillComposer = useCallback((text: string) => setFill({ text }), []);
  const openConversation = useCallback(
    (id: string | null) => {
      setReminder(null);
      void open(id);
    },
    [open],
  );
  const search = useCallback(
    (q: string) => void listed(q.trim() ? client.conversations.search(q) : client.conversations.list()).then((l) => l && setList(l)),
    [],
  );
  const rename = useCallback(
    (id: string, title: string) => void listed(client.conversations.rename(id, title)).then((r) => r && refresh()),
    [refresh],
  );
  const remove = useCallback(
    (id: string) =>
      void listed(client.conversations.remove(id)).then((r) => {
        if (!r) return;
        if (id === store.get().chat.conversationId) void open(null);
        refresh();
      }),
    [open, refresh],
  );
  const last = state.messages.at(-1);
  const canRetry = !!state.conversationId && !!last && (last.role === "user" || last.status !== "done");
  return (
    <div className="chat-screen">
      <ConversationList items={list} activeId={state.conversationId} onOpen={openConversation} onSearch={search} onRename={rename} onDelete={remove} />
      <main className="thread-pane">
        {state.safety && (
          <SafetyNotice key={`${state.conversationId ?? ""}:${state.safety.folded}`} safety={state.safety} />
        )}
        {state.plan && state.plan.steps.length > 0 && <PlanView plan={state.plan} />}
        {state.protocol && (
          <ProtocolPanel
            protocol={state.protocol}
            busy={running}
            onStart={() => void chat.startProtocol()}
            onLater={() => void chat.laterProtocol()}
            onResume={() => void chat.resumeProtocol()}
          />
        )}
        <Thread conversationId={state.conversationId} messages={state.messages} />
        <SkillChangesNotice
          changes={state.skillChanges}
          onSeen={() => store.dispatch({ type: "chat", action: { type: "skill_changes_seen" } })}
        />
        <FailureLine area="chat" />
        <FailureLine area="stop" />
        <RunStatusLine chat={state} />
        {state.error && state.error !== dismissed && (
          <ErrorBanner
            error={state.error}
            hint={state.hint}
            onOpenSettings={onOpenSettings}
            onRetry={canRetry && !running ? retry : null}
            onDismiss={() => setDismissed(state.error)}
          />
        )}
        {state.messages.length === 0 && !state.conversationId && (
          <Starters disabled={running} onSend={send} onFill={fillComposer} />
        )}
        {reminder && <ReminderQuestion reminder={reminder} onClose={() => setReminder(null)} />}
        <Composer fill={fill} running={running} canRetry={canRetry} onSend={send} onStop={stop} onRetry={retry} />
      </main>
      {state.approval && (
        <ApprovalDialog approval={state.approval} onDecide={(ok, always) => state.approval && void chat.decide(state.approval.requestId, ok, always)} />
      )}
    </div>
  );
}
