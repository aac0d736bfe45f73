import { describe, expect, it } from "vitest";
import type { ChatMessage, ConversationDetail } from "../wire";
import { fromHistory } from "./history";

const conversation = {
  id: "c1",
  title: null,
  skill: null,
  scenario: null,
  voice_mode: null,
  created_at: "2026-11-30T08:00:00Z",
  updated_at: "2026-11-30T08:05:00Z",
};

let nextId = 1;
function message(role: ChatMessage["role"], content: string, safety?: ChatMessage["safety"]): ChatMessage {
  return {
    id: nextId++,
    role,
    content,
    run_id: null,
    interrupted: false,
    created_at: "2026-11-30T08:00:00Z",
    ...(safety ? { safety } : {}),
  };
}

const contacts = { resources: [{ name: "全国心理援助热线", number: "12356", note: "24小时" }], locale: "zh-CN" };

describe("a conversation opened again", () => {
  it("shows the notice of its marked message open when the person wrote nothing since", () => {
    const detail: ConversationDetail = {
      conversation,
      messages: [message("user", "我想自杀", { risk: "acute", category: "suicide" }), message("assistant", "我在这里陪着你。")],
      crisis_resources: contacts,
    };
    expect(fromHistory(detail).safety).toEqual({
      risk: "acute",
      category: "suicide",
      resources: contacts.resources,
      locale: "zh-CN",
      folded: false,
    });
  });

  it("shows the newest mark folded once the person wrote on, and a mark without a category", () => {
    const detail: ConversationDetail = {
      conversation,
      messages: [
        message("user", "我想自杀", { risk: "acute", category: "suicide" }),
        message("assistant", "我在这里陪着你。"),
        message("user", "我一直觉得撑不下去", { risk: "concern" }),
        message("assistant", "谢谢你告诉我。"),
        message("user", "好一点了，谢谢"),
      ],
      crisis_resources: contacts,
    };
    expect(fromHistory(detail).safety).toMatchObject({ risk: "concern", category: null, folded: true });
  });

  it("shows no notice without a mark", () => {
    const detail: ConversationDetail = {
      conversation,
      messages: [message("user", "累死了"), message("assistant", "辛苦了。")],
    };
    expect(fromHistory(detail).safety).toBeNull();
  });
});
