// The mock shell's reminders: with `?reminder=1` one notified reminder of an active dankoe run
// is open (the card shows it) until a message in its conversation answers it, as the core's
// turn does. The settings' `preferences.reminders` live in the backend's settings document.

import type { ChatMessage, ConversationSummary, ReminderView } from "../wire";
import { reply, type Call } from "./call";

export const REMINDER_CONVERSATION = "conv-reminder";

export function createReminders(params: URLSearchParams) {
  const open: ReminderView[] = params.get("reminder")
    ? [
        {
          protocol_run_id: "0193a2b4-live",
          skill: "lifecoach",
          protocol_id: "dankoe",
          step: 4,
          at: "15:15",
          time: "15:15",
          conversation_id: REMINDER_CONVERSATION,
          question: "你现在做的事，是在靠近愿景，还是靠近反愿景？",
          due: true,
          answered: false,
        },
      ]
    : [];
  /** The run's conversation, stored when the reminder exists. */
  function conversation(message: (role: "user" | "assistant", content: string) => ChatMessage): (ConversationSummary & { messages: ChatMessage[] }) | null {
    if (open.length === 0) return null;
    const at = new Date(Date.UTC(2026, 10, 26, 8)).toISOString();
    return {
      id: REMINDER_CONVERSATION,
      title: "一日人生重置",
      skill: "lifecoach",
      scenario: null,
      voice_mode: null,
      created_at: at,
      updated_at: at,
      messages: [message("user", "我想重置一下生活"), message("assistant", "好的，我们进入第 4 步：打断自动驾驶。白天我会在几个时间点提醒你。")],
    };
  }
  /** A message in the run's conversation answers the open reminder. */
  function answered(conversationId: string | null) {
    if (conversationId === REMINDER_CONVERSATION) open.splice(0, open.length);
  }
  function handle({ cmd }: Call): unknown {
    return cmd === "reminder_notices" ? reply(cmd, { reminders: open }) : undefined;
  }
  return { handle, conversation, answered };
}
