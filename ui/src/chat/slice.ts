// The chat's part of the app store: the actions the chat screen takes on its state, around the
// pure event reducer (reducer.ts), which stays the only place events change what is shown.

import type { CommandError, Envelope } from "../wire";
import { reduce } from "./reducer";
import type { ChatState } from "./state";

export type ChatAction =
  | { type: "event"; env: Envelope }
  | { type: "load"; state: ChatState }
  | { type: "fail"; failure: CommandError }
  /** A message is being sent as run `runId` (minted by the UI): Stop works before its first event. */
  | { type: "sending"; runId: string }
  /** The `send_message` call of run `runId` returned: the run is over even if no event said so
   * (stopped before it started). */
  | { type: "sent"; runId: string }
  | { type: "declined" }
  /** The person closed the notice of changed skill folders. */
  | { type: "skill_changes_seen" };

export function chatReducer(state: ChatState, action: ChatAction): ChatState {
  switch (action.type) {
    case "event":
      return reduce(state, action.env);
    case "load":
      // Skill folders that changed are news of this session, not of one conversation: they stay.
      return { ...action.state, skillChanges: state.skillChanges };
    case "fail":
      return { ...state, error: action.failure.error, hint: action.failure.hint ?? null, runId: null };
    case "sending":
      return { ...state, runId: action.runId, error: null, hint: null };
    case "sent":
      return state.runId === action.runId ? { ...state, runId: null } : state;
    case "declined":
      return state.protocol ? { ...state, protocol: { ...state.protocol, declined: true } } : state;
    case "skill_changes_seen":
      return Object.keys(state.skillChanges).length ? { ...state, skillChanges: {} } : state;
  }
}
