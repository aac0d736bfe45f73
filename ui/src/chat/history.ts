// A stored conversation turned into the chat state the reducer continues from.

import type { Conversation } from "../client";
import { initialChatState, type ChatState, type Message } from "./state";

export function fromHistory(conv: Conversation): ChatState {
  const messages: Message[] = conv.messages.map((m, i) =>
    m.role === "user"
      ? { role: "user", key: `h${i}`, text: m.text }
      : {
          role: "assistant",
          key: `h${i}`,
          runId: "",
          text: m.text,
          roundStart: 0,
          textEpoch: 0,
          reasoning: "",
          tools: [],
          displays: [],
          skill: null,
          status: m.interrupted ? "interrupted" : "done",
          stopReason: null,
          error: null,
        },
  );
  return { ...initialChatState, conversationId: conv.summary.id, messages };
}
