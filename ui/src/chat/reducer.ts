// The chat screen as a pure function of the event stream: `reduce(state, envelope)` handles
// every wire event type (the `never` check makes a new type a compile error until handled).
// No side effects: replaying a run's events.jsonl reproduces what was shown.

import type { Envelope, StopReason } from "../wire";
import type { AssistantMessage, ChatState, Message, ProtocolView, ReplyStatus, ToolActivity } from "./state";

function assertNever(x: never): never {
  throw new Error(`unhandled event type: ${JSON.stringify(x)}`);
}

/** How a stop reason shows on the reply it ended. */
export function replyStatus(reason: StopReason): ReplyStatus {
  switch (reason) {
    case "completed":
      return "done";
    case "cancelled":
      return "stopped";
    case "interrupted":
      return "interrupted";
    case "model_error":
    case "failed":
      return "failed";
    case "max_rounds":
    case "max_tool_calls":
    case "max_script_runs":
    case "max_context_tokens":
    case "repeated_tool_failure":
      return "stopped";
    default:
      return assertNever(reason);
  }
}

/** Replaces the reply of `runId` (the last assistant message of that run) with `f(reply)`. */
function updateReply(
  state: ChatState,
  runId: string,
  f: (m: AssistantMessage) => AssistantMessage,
): ChatState {
  const messages = state.messages;
  for (let i = messages.length - 1; i >= 0; i--) {
    const m = messages[i];
    if (m && m.role === "assistant" && m.runId === runId) {
      const next = messages.slice();
      next[i] = f(m);
      return { ...state, messages: next };
    }
  }
  return state;
}

function updateTool(
  m: AssistantMessage,
  id: string,
  f: (t: ToolActivity) => ToolActivity,
): AssistantMessage {
  return { ...m, tools: m.tools.map((t) => (t.id === id ? f(t) : t)) };
}

/** True when `text` is a retry of the last user message (no finished reply follows it). */
function isRetryOf(messages: Message[], text: string): boolean {
  for (let i = messages.length - 1; i >= 0; i--) {
    const m = messages[i];
    if (!m) continue;
    if (m.role === "user") return m.text === text;
    if (m.status === "done") return false;
  }
  return false;
}

export function reduce(state: ChatState, env: Envelope): ChatState {
  const run = env.run_id;
  switch (env.type) {
    case "skills_changed": {
      const skillChanges = { ...state.skillChanges };
      for (const c of env.changes) skillChanges[c.name] = c.change;
      return { ...state, skillChanges };
    }
    case "run_started": {
      const messages = state.messages.slice();
      if (!isRetryOf(messages, env.user_message)) {
        messages.push({ role: "user", key: `${run}:u`, text: env.user_message });
      }
      messages.push({
        role: "assistant",
        key: `${run}:a`,
        runId: run,
        text: "",
        roundStart: 0,
        textEpoch: 0,
        reasoning: "",
        tools: [],
        displays: [],
        skill: null,
        status: "streaming",
        stopReason: null,
        error: null,
        unsaved: false,
      });
      return {
        ...state,
        conversationId: env.conversation_id,
        messages,
        runId: run,
        phase: env.phase,
        skill: env.skill ?? null,
        approval: null,
        error: null,
        hint: null,
        notices: [],
        usage: { prompt_tokens: 0, completion_tokens: 0, total_tokens: 0 },
      };
    }
    case "round_started":
      return updateReply(state, run, (m) => ({ ...m, roundStart: m.text.length }));
    case "model_request":
      return { ...state, phase: env.phase, notices: env.notices ?? [] };
    case "assistant_delta":
      return updateReply(state, run, (m) => ({ ...m, text: m.text + env.text }));
    case "reasoning_delta":
      return updateReply(state, run, (m) => ({ ...m, reasoning: m.reasoning + env.text }));
    case "assistant_restart":
      return updateReply(state, run, (m) => ({
        ...m,
        text: m.text.slice(0, m.roundStart),
        textEpoch: m.textEpoch + 1,
      }));
    case "tool_call":
      return updateReply(state, run, (m) => ({
        ...m,
        tools: [...m.tools, { id: env.id, name: env.name, arguments: env.arguments, status: "running" }],
      }));
    case "tool_result":
      return updateReply(state, run, (m) =>
        updateTool(m, env.id, (t) => ({
          ...t,
          result: env.result,
          status: t.status === "denied" ? "denied" : env.is_error ? "failed" : "done",
        })),
      );
    case "skill_activated":
      return updateReply({ ...state, skill: env.skill }, run, (m) => ({ ...m, skill: env.skill }));
    case "plan_updated":
      return { ...state, plan: env.plan };
    case "state_changed":
      return { ...state, stateChange: { skill: env.skill ?? null, paths: env.paths } };
    case "display":
      return updateReply(state, run, (m) => ({
        ...m,
        displays: [...m.displays, { kind: env.kind, data: env.data }],
      }));
    case "approval_required": {
      const next = updateReply(state, run, (m) => {
        // The approval names the tool; mark its latest running call as waiting.
        const idx = m.tools.map((t) => t.name === env.tool && t.status === "running").lastIndexOf(true);
        if (idx < 0) return m;
        const tools = m.tools.slice();
        const t = tools[idx];
        if (t) tools[idx] = { ...t, status: "awaiting_approval" };
        return { ...m, tools };
      });
      return {
        ...next,
        approval: {
          requestId: env.request_id,
          tool: env.tool,
          args: env.args,
          reason: env.reason,
          connection: env.connection ?? null,
        },
      };
    }
    case "approval_resolved": {
      const approval = state.approval?.requestId === env.request_id ? null : state.approval;
      const next = updateReply(state, run, (m) => ({
        ...m,
        tools: m.tools.map((t) =>
          t.status === "awaiting_approval" ? { ...t, status: env.approved ? "running" : "denied" } : t,
        ),
      }));
      return { ...next, approval };
    }
    case "compacted":
      return {
        ...state,
        notices: [...state.notices, `compacted:${env.folded_messages}`],
      };
    case "usage":
      return {
        ...state,
        usage: {
          prompt_tokens: state.usage.prompt_tokens + env.usage.prompt_tokens,
          completion_tokens: state.usage.completion_tokens + env.usage.completion_tokens,
          total_tokens: state.usage.total_tokens + env.usage.total_tokens,
        },
      };
    case "error": {
      const error = { kind: env.kind, message: env.message };
      return updateReply({ ...state, error, hint: null }, run, (m) => ({ ...m, error }));
    }
    case "run_finished": {
      const next = updateReply(state, run, (m) => ({
        ...m,
        status: replyStatus(env.stop_reason),
        stopReason: env.stop_reason,
      }));
      return {
        ...next,
        runId: state.runId === run ? null : state.runId,
        approval: null,
        usage: env.usage,
      };
    }
    case "protocol_invitation":
      return {
        ...state,
        protocol: {
          ...blankProtocol(env.protocol_id, null),
          skill: env.skill,
          status: "invited",
          invitation: {
            title: env.title,
            description: env.description,
            estimatedTime: env.estimated_time ?? null,
            titleEn: env.title_en ?? null,
            descriptionEn: env.description_en ?? null,
            estimatedTimeEn: env.estimated_time_en ?? null,
            actions: env.actions,
          },
        },
      };
    case "protocol_invitation_lapsed": {
      // Only the invitation on screen lapses; a run that started meanwhile stays as it is.
      const current = state.protocol;
      if (!current || current.protocolId !== env.protocol_id || current.status !== "invited") return state;
      return { ...state, protocol: { ...current, status: "lapsed" } };
    }
    case "protocol_progress": {
      const before = protocolOf(state, env.protocol_id, env.protocol_run_id);
      // Every step's name when the event carries them; else the names seen so far.
      const stepNames = env.step_names?.length ? env.step_names.slice() : before.stepNames.slice();
      if (env.step >= 1) stepNames[env.step - 1] = env.step_name;
      const stepNamesEn = env.step_names_en?.length ? env.step_names_en.slice() : before.stepNamesEn;
      return {
        ...state,
        protocol: {
          ...before,
          status: "active",
          invitation: null,
          step: env.step,
          totalSteps: env.total_steps,
          stepName: env.step_name,
          stepNames: Array.from(stepNames, (n) => n ?? ""),
          stepNamesEn,
          declined: false,
          phase: env.phase ?? null,
          progress: env.progress,
          summary: null,
        },
      };
    }
    case "protocol_completed":
      return {
        ...state,
        protocol: {
          ...protocolOf(state, env.protocol_id, env.protocol_run_id),
          status: "completed",
          progress: 1,
          summary: env.summary,
        },
      };
    case "protocol_cancelled":
      return {
        ...state,
        protocol: {
          ...protocolOf(state, env.protocol_id, env.protocol_run_id),
          status: "cancelled",
          summary: env.reason ?? null,
        },
      };
    case "protocol_paused":
      return {
        ...state,
        protocol: {
          ...protocolOf(state, env.protocol_id, env.protocol_run_id),
          status: "paused",
          step: env.step,
          totalSteps: env.total_steps,
        },
      };
    case "reply_unsaved":
      return updateReply(state, run, (m) => ({ ...m, unsaved: true }));
    case "model_download_progress":
    case "model_download_finished":
    case "model_download_failed":
      // Downloads of local models (Settings → Models) are not part of a conversation.
      return state;
    case "sync_changed":
      // Sync's status is Settings → Sync's (its own watch channel), not a conversation's.
      return state;
    case "safety_check":
      // The model check of an unsure screening (docs/safety.md): what stands arrives as
      // `safety_notice` (or nothing); the check itself changes nothing on screen.
      return state;
    case "safety_notice":
      return {
        ...state,
        safety: { risk: env.risk, category: env.category, resources: env.resources, locale: env.locale, folded: false },
      };
    default:
      return assertNever(env);
  }
}

/** The protocol view an event of `protocolRunId` updates: the current one when it is that run. */
function protocolOf(state: ChatState, protocolId: string, protocolRunId: string): ProtocolView {
  const current = state.protocol;
  if (current && current.protocolId === protocolId && (current.runId ?? protocolRunId) === protocolRunId) {
    return { ...current, runId: protocolRunId, invitation: null, declined: false };
  }
  return blankProtocol(protocolId, protocolRunId);
}

/** A protocol view with nothing known yet but its ids. */
function blankProtocol(protocolId: string, runId: string | null): ProtocolView {
  return {
    protocolId,
    skill: null,
    runId,
    status: "active",
    invitation: null,
    step: 0,
    totalSteps: 0,
    stepName: "",
    stepNames: [],
    stepNamesEn: [],
    declined: false,
    phase: null,
    progress: 0,
    summary: null,
  };
}


/** Folds a list of events (a replayed events.jsonl) into a state. */
export function replay(events: Envelope[], from: ChatState): ChatState {
  return events.reduce(reduce, from);
}
