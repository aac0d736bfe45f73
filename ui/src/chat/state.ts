// The chat screen's state: what the event reducer builds from a conversation's history and
// its runs' events. Plain data, no behaviour (the reducer is in reducer.ts).

import type {
  ApprovalConnection,
  DisplayKind,
  ErrorInfo,
  Hint,
  Phase,
  Plan,
  ProtocolAction,
  StopReason,
  TokenUsage,
} from "../wire";
import type { SafetyView } from "../safety/view";

export type { SafetyView };

export interface ToolActivity {
  id: string;
  name: string;
  arguments: unknown;
  /** `running` until its result arrives; `awaiting_approval` while the person decides. */
  status: "running" | "awaiting_approval" | "denied" | "done" | "failed";
  result?: unknown;
}

export interface Display {
  kind: DisplayKind;
  data: unknown;
}

/** How an assistant reply ended (`streaming` while its run is live). */
export type ReplyStatus = "streaming" | "done" | "stopped" | "interrupted" | "failed";

export interface UserMessage {
  role: "user";
  key: string;
  text: string;
}

export interface AssistantMessage {
  role: "assistant";
  key: string;
  runId: string;
  text: string;
  /** Length of `text` when the current model round began (an `assistant_restart` cuts back to it). */
  roundStart: number;
  /** Bumped when `text` is replaced rather than appended to (after `assistant_restart`). */
  textEpoch: number;
  reasoning: string;
  tools: ToolActivity[];
  displays: Display[];
  /** Skill activated during this reply (the badge). */
  skill: string | null;
  status: ReplyStatus;
  stopReason: StopReason | null;
  error: ErrorInfo | null;
  /** The reply could not be saved (`reply_unsaved`): it is shown but not in the history. */
  unsaved: boolean;
}

export type Message = UserMessage | AssistantMessage;

export interface PendingApproval {
  requestId: string;
  tool: string;
  args: unknown;
  reason: string;
  /** The connected MCP server the tool belongs to, with its hints (`null`: the app's own tool). */
  connection: ApprovalConnection | null;
}

/** The conversation's coaching protocol, as its events told it. */
export interface ProtocolView {
  protocolId: string;
  /** The skill that defines it (from the invitation), for `start_protocol` / `later_protocol`. */
  skill: string | null;
  /** The protocol run's id; null while it is only an invitation. */
  runId: string | null;
  /** `lapsed`: the next message after the invitation was not an agreement, so nothing started. */
  status: "invited" | "lapsed" | "active" | "paused" | "completed" | "cancelled";
  /** What the invitation card shows; the `…En` parts, when the protocol has them, for an English UI. */
  invitation: {
    title: string;
    description: string;
    estimatedTime: string | null;
    titleEn: string | null;
    descriptionEn: string | null;
    estimatedTimeEn: string | null;
    actions: ProtocolAction[];
  } | null;
  step: number;
  totalSteps: number;
  stepName: string;
  /** Names of the steps seen so far, by step (index 0 is step 1); later steps are unnamed. */
  stepNames: string[];
  /** Every step's English name, when the protocol has them (else empty: `stepNames` is shown). */
  stepNamesEn: string[];
  /** The person chose "later": the card folds away. */
  declined: boolean;
  phase: string | null;
  /** 0–1. */
  progress: number;
  /** The completion summary, or the reason it was cancelled. */
  summary: string | null;
}

export interface ChatState {
  conversationId: string | null;
  messages: Message[];
  /** The live run, if any. */
  runId: string | null;
  phase: Phase | null;
  /** The conversation's active skill. */
  skill: string | null;
  plan: Plan | null;
  approval: PendingApproval | null;
  /** The last error of the conversation's latest run, shown in the banner until the next run. */
  error: ErrorInfo | null;
  /** What fixes the error, when a failed command said (a run's own errors carry none). */
  hint: Hint | null;
  /** Context notices of the latest request and compactions, in words for people. */
  notices: string[];
  usage: TokenUsage;
  /** Skills that changed on disk since the screen opened (name → change). */
  skillChanges: Record<string, string>;
  protocol: ProtocolView | null;
  /** Stays shown once a message raised it, so the resources remain in reach. */
  safety: SafetyView | null;
  /** The last stored data a tool changed (`state_changed`): a screen showing it refreshes. */
  stateChange: StateChange | null;
}

/** Which stored paths changed: of a skill's state, or of the profile (`skill` null). */
export interface StateChange {
  skill: string | null;
  paths: string[];
}

export const initialChatState: ChatState = {
  conversationId: null,
  messages: [],
  runId: null,
  phase: null,
  skill: null,
  plan: null,
  approval: null,
  error: null,
  hint: null,
  notices: [],
  usage: { prompt_tokens: 0, completion_tokens: 0, total_tokens: 0 },
  skillChanges: {},
  protocol: null,
  safety: null,
  stateChange: null,
};
