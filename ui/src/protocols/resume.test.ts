import { describe, expect, it } from "vitest";
import type { ConversationSummary, ProtocolRunView } from "../wire";
import { reopenedProtocol } from "./resume";

const conv = (id: string, skill: string | null): ConversationSummary => ({
  id, title: null, skill, scenario: null, voice_mode: null, created_at: "", updated_at: "",
});
const run = (id: string, status: ProtocolRunView["status"], conversation_id: string | null, skill = "lifecoach"): ProtocolRunView => ({
  id, skill, protocol_id: "dankoe", protocol_version: 1, status, step: 3, total_steps: 6, data: {}, summaries: {},
  conversation_id, model: null, cancel_reason: null, started_at: "", last_activity_at: "", completed_at: null, answers: [],
  step_names: ["觉察痛点", "反愿景", "愿景", "一年目标", "一个月项目", "游戏计划"],
  step_names_en: ["Notice the pain", "Anti-vision", "Vision", "One-year goal", "One-month project", "Game plan"],
});

describe("reopenedProtocol", () => {
  it("shows the conversation's own active run first", () => {
    const events = reopenedProtocol(conv("c1", "lifecoach"), [run("other", "active", null), run("mine", "active", "c1")]);
    expect(events).toMatchObject([{ type: "protocol_progress", protocol_run_id: "mine", step: 3, total_steps: 6 }]);
  });
  it("names the current step and every step, in both languages, as a live event does", () => {
    const [event] = reopenedProtocol(conv("c1", "lifecoach"), [run("mine", "active", "c1")]);
    expect(event).toMatchObject({ step_name: "愿景", step_names: expect.arrayContaining(["反愿景"]) });
    expect(event).toMatchObject({ step_names_en: expect.arrayContaining(["Vision"]) });
  });
  it("else the active run of its skill that names no conversation", () => {
    expect(reopenedProtocol(conv("c1", "lifecoach"), [run("card", "active", null)])).toHaveLength(1);
    expect(reopenedProtocol(conv("c1", "career"), [run("card", "active", null)])).toEqual([]);
    expect(reopenedProtocol(conv("c1", null), [run("card", "active", null)])).toEqual([]);
  });
  it("else the conversation's own paused run, shown paused (its Resume button is there)", () => {
    const events = reopenedProtocol(conv("c1", "lifecoach"), [run("d", "completed", "c1"), run("p", "paused", "c1")]);
    expect(events).toMatchObject([
      { type: "protocol_progress", protocol_run_id: "p", step: 3, step_name: "愿景" },
      { type: "protocol_paused", protocol_run_id: "p", step: 3, total_steps: 6 },
    ]);
  });
  it("an active run wins over a paused one", () => {
    const events = reopenedProtocol(conv("c1", "lifecoach"), [run("p", "paused", "c1"), run("card", "active", null)]);
    expect(events).toMatchObject([{ type: "protocol_progress", protocol_run_id: "card" }]);
  });
  it("ignores finished runs, other conversations' runs and paused runs it did not start", () => {
    const runs = [run("d", "completed", "c1"), run("x", "active", "c2"), run("q", "paused", "c2"), run("n", "paused", null)];
    expect(reopenedProtocol(conv("c1", "lifecoach"), runs)).toEqual([]);
  });
});
