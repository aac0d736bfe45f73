// When a stored conversation is opened, its active protocol run (if any) is shown again: the
// run the conversation started, or — for a run started from a card, which names no
// conversation — the active run of the conversation's skill (the one its next turn continues).
// Without one, a run this conversation started that is paused (the safety screen pauses it on a
// message at risk) is shown paused, so its Resume button is where the person left it. As
// `protocol_progress` (and `protocol_paused`) events, through the same reducer as live ones.

import type { ConversationSummary, Event, ProtocolRunView } from "../wire";

export function reopenedProtocol(conversation: ConversationSummary, runs: ProtocolRunView[]): Event[] {
  const active = runs.filter((r) => r.status === "active");
  const run =
    active.find((r) => r.conversation_id === conversation.id) ??
    active.find((r) => r.conversation_id === null && conversation.skill !== null && r.skill === conversation.skill);
  if (run) return [progress(run)];
  const paused = runs.find((r) => r.status === "paused" && r.conversation_id === conversation.id);
  if (!paused) return [];
  return [
    progress(paused),
    {
      type: "protocol_paused",
      protocol_id: paused.protocol_id,
      protocol_run_id: paused.id,
      step: paused.step,
      total_steps: paused.total_steps,
    },
  ];
}

function progress(run: ProtocolRunView): Event {
  return {
    type: "protocol_progress",
    protocol_id: run.protocol_id,
    protocol_run_id: run.id,
    step: run.step,
    total_steps: run.total_steps,
    step_name: run.step_names[run.step - 1] ?? "",
    progress: (run.step - 1) / Math.max(run.total_steps, 1),
    step_names: run.step_names,
    step_names_en: run.step_names_en,
  };
}
