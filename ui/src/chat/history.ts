// A stored conversation turned into the chat state the reducer continues from. What a person
// reads is kept: user messages and assistant text; tool calls and results, system messages and
// the empty assistant turns that only called tools are not shown in the thread. A message of
// the person that raised a safety notice raises it again (docs/safety.md), with the contacts
// the core sent for the person's locale.

import type { ConversationDetail } from "../wire";
import { initialChatState, type ChatState, type Message, type SafetyView } from "./state";

export function fromHistory(detail: ConversationDetail): ChatState {
  const messages: Message[] = [];
  for (const m of detail.messages) {
    const key = `h${m.id}`;
    if (m.role === "user") messages.push({ role: "user", key, text: m.content });
    else if (m.role === "assistant" && (m.content !== "" || !m.tool_calls))
      messages.push({
        role: "assistant",
        key,
        runId: m.run_id ?? "",
        text: m.content,
        roundStart: 0,
        textEpoch: 0,
        reasoning: "",
        tools: [],
        displays: [],
        skill: null,
        status: m.interrupted ? "interrupted" : "done",
        stopReason: null,
        error: null,
        unsaved: false,
      });
  }
  return { ...initialChatState, conversationId: detail.conversation.id, messages, safety: safetyOf(detail) };
}

/** The notice of the newest marked message, open when the person has written nothing since. */
function safetyOf(detail: ConversationDetail): SafetyView | null {
  const contacts = detail.crisis_resources;
  const fromPerson = detail.messages.filter((m) => m.role === "user");
  const marked = [...fromPerson].reverse().find((m) => m.safety);
  if (!contacts || !marked?.safety) return null;
  return {
    risk: marked.safety.risk,
    category: marked.safety.category ?? null,
    resources: contacts.resources,
    locale: contacts.locale,
    folded: marked !== fromPerson.at(-1),
  };
}
