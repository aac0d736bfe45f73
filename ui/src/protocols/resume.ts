// When a stored conversation is opened, its active protocol run (if any) is shown again: the
// run the conversation started, or — for a run started from a card, which names no
// conversation — the active run of the conversation's skill (the one its next turn continues).
// As a `protocol_progress` event, so it goes through the same reducer as a live one.

import type { ConversationSummary, Event, ProtocolRunView } from "../wire";

export function reopenedProtocol(conversation: ConversationSummary, runs: ProtocolRunView[]): Event[] {
  const active = runs.filter((r) => r.status === "active");
  const run =
    active.find((r) => r.conversation_id === conversation.id) ??
    active.find((r) => r.conversation_id === null && conversation.skill !== null && r.skill === conversation.skill);
  if (!run) return [];
  return [
    {
      type: "protocol_progress",
      protocol_id: run.protocol_id,
      protocol_run_id: run.id,
      step: run.step,
      total_steps: run.total_steps,
      step_name: run.step_names[run.step - 1] ?? "",
      progress: (run.step - 1) / Math.max(run.total_steps, 1),
      step_names: run.step_names,
      step_names_en: run.step_names_en,
    },
  ];
}
