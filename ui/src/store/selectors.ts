// What screens read from the app store. A selector returns a piece of the state as it is (never
// a new object), so a screen re-renders only when that piece changes; the pure helpers below
// turn a piece into what a line on screen says.

import type { ChatState } from "../chat/state";
import type { Phase, SkillsChangeKind, TokenUsage } from "../wire";
import type { AppState, FailureArea } from "./app";

export const selectChat = (s: AppState) => s.chat;
export const selectSkills = (s: AppState) => s.skills;
export const selectReminders = (s: AppState) => s.reminders;
export const selectDownloads = (s: AppState) => s.downloads;
/** The last failure of `area` (null: none, or it was closed). */
export const selectFailure = (area: FailureArea) => (s: AppState) => s.failures[area] ?? null;

/** The chat's status line: the context phase while a reply is being made, the tokens the last
 * reply used once it has ended; null before any run of this screen. */
export type RunStatus = { kind: "phase"; phase: Phase } | { kind: "usage"; usage: TokenUsage } | null;

export function runStatus(chat: Pick<ChatState, "runId" | "phase" | "usage">): RunStatus {
  if (chat.runId !== null) return chat.phase ? { kind: "phase", phase: chat.phase } : null;
  return chat.usage.total_tokens > 0 ? { kind: "usage", usage: chat.usage } : null;
}

/** The chat's context notices as a person reads them: the compactions (how many earlier messages
 * were summarised, added up), and the core's own notes of what was shortened or left out to fit
 * the model's context (its words, shown under a line in the UI's language). */
export interface ContextNotes {
  compacted: number;
  trimmed: string[];
}

export function contextNotes(notices: readonly string[]): ContextNotes {
  let compacted = 0;
  const trimmed: string[] = [];
  for (const n of notices) {
    const folded = /^compacted:(\d+)$/.exec(n);
    if (folded) compacted += Number(folded[1]);
    else trimmed.push(n);
  }
  return { compacted, trimmed };
}

/** The chat's changed skill folders, by name, in a stable order. */
export function skillChangeList(changes: Record<string, string>): Array<{ name: string; change: SkillsChangeKind }> {
  return Object.keys(changes)
    .sort()
    .map((name) => ({ name, change: changes[name] as SkillsChangeKind }));
}
