// The chat screen's state holder: the chat slice of the app store (its pure event reducer fed by
// the client's event channel), plus the actions a person takes (send, stop, retry, approve, open
// a conversation, answer a protocol invitation). Each turn's run id is minted here (runId.ts).

import { useCallback, useEffect, useRef } from "react";
import * as client from "../client";
import type { Envelope, Event, TurnInput } from "../wire";
import { reopenedProtocol } from "../protocols/resume";
import { recovered, report, selectChat, store, useApp } from "../store";
import { fromHistory } from "./history";
import { mintRunId } from "./runId";
import type { ChatAction } from "./slice";
import { initialChatState } from "./state";

const dispatch = (action: ChatAction) => store.dispatch({ type: "chat", action });
/** The chat state now (not as of the last render): for actions that run later. */
const current = () => store.get().chat;

/** `onListChanged` runs when a run starts (a new conversation exists from then) and ends. */
export function useChat(onListChanged: () => void) {
  const state = useApp(selectChat);
  // A coach's tool changed stored data: screens showing it (Me's dashboard) load it again.
  useEffect(() => {
    if (state.stateChange) client.stateChanges.announce(state.stateChange);
  }, [state.stateChange]);

  const onEvent = useCallback(
    (env: Envelope) => {
      dispatch({ type: "event", env });
      // A new run: a failed Stop of an earlier one is old news.
      if (env.type === "run_started") recovered("stop");
      if (env.type === "run_started" || env.type === "run_finished") onListChanged();
    },
    [onListChanged],
  );

  /** One turn, under a run id minted here so Stop works before the run's first event. */
  const turn = useCallback(
    async (conversationId: string | null, input: TurnInput) => {
      const runId = mintRunId();
      dispatch({ type: "sending", runId });
      try {
        await client.sendMessage(conversationId, input, onEvent, runId);
        dispatch({ type: "sent", runId });
      } catch (e) {
        dispatch({ type: "fail", failure: client.toCommandError(e) });
      }
    },
    [onEvent],
  );

  const send = useCallback((text: string) => turn(current().conversationId, { type: "say", text }), [turn]);

  const retry = useCallback(async () => {
    const id = current().conversationId;
    if (!id) return;
    await turn(id, { type: "retry" });
  }, [turn]);

  const stop = useCallback(async () => {
    const runId = current().runId;
    if (!runId) return;
    try {
      await client.cancelRun(runId);
      recovered("stop");
    } catch (e) {
      // The run may have ended on its own meanwhile: only a run still going failed to stop.
      if (current().runId === runId) report("stop", e);
    }
  }, []);

  const decide = useCallback(async (requestId: string, approved: boolean, always = false) => {
    try {
      await client.resolveApproval(requestId, approved, always);
    } catch (e) {
      dispatch({ type: "fail", failure: client.toCommandError(e) });
    }
  }, []);

  /** Events a command answered with (not a run's): through the same reducer, outside any run. */
  const feed = useCallback((events: Event[]) => {
    const ts = new Date().toISOString();
    events.forEach((e, seq) => dispatch({ type: "event", env: { ...e, run_id: "", seq, ts } as Envelope }));
  }, []);

  /** The conversation asked for last (a slower earlier open must not show its protocol). */
  const opening = useRef<string | null>(null);
  const open = useCallback(async (id: string | null) => {
    opening.current = id;
    if (id === null) return dispatch({ type: "load", state: initialChatState });
    try {
      const detail = await client.conversations.get(id);
      dispatch({ type: "load", state: fromHistory(detail) });
      // Its active protocol, shown again (a failure here leaves the thread as it is, and says so).
      const runs = await client.protocols.runs().then(
        (r) => {
          recovered("chat");
          return r;
        },
        (e) => {
          report("chat", e);
          return [];
        },
      );
      if (opening.current === id) feed(reopenedProtocol(detail.conversation, runs));
    } catch (e) {
      dispatch({ type: "fail", failure: client.toCommandError(e) });
    }
  }, [feed]);

  /** The invitation's Start button: a turn that starts the protocol in this conversation, so
   * the coach asks the first step's question at once (its words are the person's message). */
  const startProtocol = useCallback(async () => {
    const { protocol: p, conversationId } = current();
    if (!p || !conversationId) return;
    const label = p.invitation?.actions.find((a) => a.value === "start")?.label ?? "";
    await turn(conversationId, { type: "choose", protocol_id: p.protocolId, choice: "start", label });
  }, [turn]);

  const laterProtocol = useCallback(async () => {
    const p = current().protocol;
    if (!p) return;
    try {
      await client.protocols.later(p.protocolId, p.skill);
      dispatch({ type: "declined" });
    } catch (e) {
      dispatch({ type: "fail", failure: client.toCommandError(e) });
    }
  }, []);

  /** The paused protocol's Resume button: the run is active again (another active run of the
   * skill is paused), told through the same reducer as a turn's events, so the next message
   * answers its step. */
  const resumeProtocol = useCallback(async () => {
    const runId = current().protocol?.runId;
    if (!runId) return;
    try {
      const change = await client.protocols.resume(runId);
      feed(change.events);
    } catch (e) {
      dispatch({ type: "fail", failure: client.toCommandError(e) });
    }
  }, [feed]);

  return { state, send, retry, stop, decide, open, startProtocol, laterProtocol, resumeProtocol };
}
