import { describe, expect, it } from "vitest";
import type { ConversationSummary, ProtocolRunView } from "../wire";
import { reopenedProtocol } from "./resume";

const conv = (id: string, skill: string | null): ConversationSummary => ({
  id, title: null, skill, scenario: null, voice_mode: null, created_at: "", updated_at: "",
});
const run = (id: string, status: ProtocolRunView["status"], conversation_id: string | null, skill = "lifecoach"): ProtocolRunView => ({
  id, skill, protocol_id: "dankoe", protocol_version: 1, status, step: 3, total_steps: 6, data: {}, summaries: {},
  conversation_id, model: null, cancel_reason: null, started_at: "", last_activity_at: "", completed_at: null, answers: [],
});

describe("reopenedProtocol", () => {
  it("shows the conversation's own active run first", () => {
    const events = reopenedProtocol(conv("c1", "lifecoach"), [run("other", "active", null), run("mine", "active", "c1")]);
    expect(events).toMatchObject([{ type: "protocol_progress", protocol_run_id: "mine", step: 3, total_steps: 6 }]);
  });
  it("else the active run of its skill that names no conversation", () => {
    expect(reopenedProtocol(conv("c1", "lifecoach"), [run("card", "active", null)])).toHaveLength(1);
    expect(reopenedProtocol(conv("c1", "career"), [run("card", "active", null)])).toEqual([]);
    expect(reopenedProtocol(conv("c1", null), [run("card", "active", null)])).toEqual([]);
  });
  it("ignores paused, finished and other conversations' runs", () => {
    const runs = [run("p", "paused", "c1"), run("d", "completed", "c1"), run("x", "active", "c2")];
    expect(reopenedProtocol(conv("c1", "lifecoach"), runs)).toEqual([]);
  });
});
