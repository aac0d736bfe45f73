// The reducer fed by real `vibe chat --json` output (fixtures/, captured by fixtures/capture.sh).

import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import type { Envelope, Event } from "../wire";
import { reduce, replay } from "./reducer";
import { initialChatState, type AssistantMessage, type ChatState } from "./state";
import { parseJsonl } from "../e2e-mock/scripts";

const fixture = (name: string) => parseJsonl(readFileSync(new URL(`../../fixtures/${name}.jsonl`, import.meta.url), "utf8"));
const run = (events: Envelope[], from: ChatState = initialChatState) => replay(events, from);
const reply = (s: ChatState) => s.messages.at(-1) as AssistantMessage;
const deltas = (events: Envelope[]) =>
  events.flatMap((e) => (e.type === "assistant_delta" ? [e.text] : [])).join("");

/** Every event type; the Record makes a new wire type a compile error here too. */
const ALL_TYPES: Record<Event["type"], true> = {
  skills_changed: true,
  model_download_progress: true,
  model_download_finished: true,
  model_download_failed: true,
  sync_changed: true,
  run_started: true,
  round_started: true,
  model_request: true,
  assistant_delta: true,
  reasoning_delta: true,
  assistant_restart: true,
  tool_call: true,
  tool_result: true,
  skill_activated: true,
  plan_updated: true,
  state_changed: true,
  display: true,
  approval_required: true,
  approval_resolved: true,
  compacted: true,
  usage: true,
  error: true,
  run_finished: true,
  protocol_invitation: true,
  protocol_invitation_lapsed: true,
  protocol_progress: true,
  protocol_completed: true,
  protocol_cancelled: true,
  protocol_paused: true,
  safety_notice: true,
  safety_check: true,
  reply_unsaved: true,
};
const covered = new Set<string>();
function feed(events: Envelope[], from: ChatState = initialChatState) {
  for (const e of events) covered.add(e.type);
  return run(events, from);
}

describe("reduce over recorded runs", () => {
  it("streams a plain answer into one user and one finished assistant message", () => {
    const events = fixture("text");
    const s = feed(events);
    expect(s.messages.map((m) => m.role)).toEqual(["user", "assistant"]);
    expect(s.messages[0]?.text).toBe("最近工作压力很大，想理一理");
    const m = reply(s);
    expect(m.text).toBe(deltas(events));
    expect(m.text).toContain("## 先喘口气");
    expect(m.reasoning).toContain("stressed");
    expect(m.status).toBe("done");
    expect(s.runId).toBeNull();
    expect(s.usage.completion_tokens).toBeGreaterThan(0);
  });

  it("shows the text while it streams, before the run ends", () => {
    const events = fixture("text");
    const half = events.findIndex((e) => e.type === "assistant_delta") + 5;
    const s = feed(events.slice(0, half));
    expect(reply(s).status).toBe("streaming");
    expect(s.runId).not.toBeNull();
    expect(reply(s).text.length).toBeGreaterThan(0);
    expect(deltas(events).startsWith(reply(s).text)).toBe(true);
  });

  it("marks the skill, the plan and the tool calls of a phase-2 run", () => {
    const s = feed(fixture("skill-plan"));
    const m = reply(s);
    expect(m.skill).toBe("lifecoach");
    expect(s.skill).toBe("lifecoach");
    expect(m.tools.map((t) => [t.name, t.status])).toEqual([
      ["use_skill", "done"],
      ["update_plan", "done"],
    ]);
    expect(s.plan?.goal).toBe("理清工作压力");
    expect(s.plan?.steps.map((x) => x.status)).toEqual(["done", "in_progress", "pending"]);
    expect(m.text).toContain("今天就能推进");
  });

  it("asks for approval, then runs the tool when it is granted", () => {
    const events = fixture("approval-granted");
    const ask = events.findIndex((e) => e.type === "approval_required");
    const waiting = feed(events.slice(0, ask + 1));
    expect(waiting.approval?.tool).toBe("run_script");
    expect(reply(waiting).tools.at(-1)?.status).toBe("awaiting_approval");
    const s = feed(events.slice(ask + 1), waiting);
    expect(s.approval).toBeNull();
    expect(reply(s).tools.at(-1)?.status).toBe("done");
    expect(JSON.stringify(reply(s).tools.at(-1)?.result)).toContain("streak: 5 days");
    expect(reply(s).status).toBe("done");
  });

  it("shows a denied tool as denied and closes the dialog", () => {
    const s = feed(fixture("approval-denied"));
    expect(s.approval).toBeNull();
    const tool = reply(s).tools.find((t) => t.name === "run_script");
    expect(tool?.status).toBe("denied");
  });

  it("keeps a model error for the banner and marks the reply failed", () => {
    const s = feed(fixture("model-error"));
    expect(s.error?.kind).toBe("network");
    expect(s.error?.message).toContain("127.0.0.1:9");
    expect(reply(s).status).toBe("failed");
    expect(reply(s).stopReason).toBe("model_error");
  });

  it("retries the same message without repeating it, and the new run clears the error", () => {
    const failed = feed(fixture("model-error"));
    const text = fixture("text").map((e) =>
      e.type === "run_started" ? { ...e, user_message: failed.messages[0]?.text ?? "" } : e,
    );
    const s = feed(text, failed);
    expect(s.messages.map((m) => m.role)).toEqual(["user", "assistant", "assistant"]);
    expect(s.error).toBeNull();
    expect((s.messages[1] as AssistantMessage).status).toBe("failed");
    expect(reply(s).status).toBe("done");
  });
});

describe("reduce over cases the recordings do not hold", () => {
  const base = fixture("text");
  const runId = base[0]?.run_id ?? "";
  const at = (e: Event): Envelope => ({ run_id: runId, seq: 0, ts: "", ...e }) as Envelope;

  it("keeps what streamed when the run is stopped", () => {
    const cut = base.findIndex((e) => e.type === "assistant_delta") + 3;
    const s = feed([
      ...base.slice(0, cut),
      at({ type: "run_finished", stop_reason: "cancelled", usage: { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 }, rounds: 1, tool_calls: 0 }),
    ]);
    expect(reply(s).status).toBe("stopped");
    expect(reply(s).text).toBe(deltas(base.slice(0, cut)));
    expect(s.runId).toBeNull();
  });

  it("drops this round's text on assistant_restart and keeps earlier rounds", () => {
    const s = feed([
      ...base.slice(0, 2),
      at({ type: "round_started", round: 1 }),
      at({ type: "assistant_delta", text: "kept. " }),
      at({ type: "round_started", round: 2 }),
      at({ type: "assistant_delta", text: "broken {" }),
      at({ type: "assistant_restart", reason: "invalid action JSON" }),
      at({ type: "assistant_delta", text: "fixed" }),
    ]);
    expect(reply(s).text).toBe("kept. fixed");
    expect(reply(s).textEpoch).toBe(1);
  });

  it("records displays, compactions and skill changes", () => {
    let s = feed(base.slice(0, 2));
    s = feed(
      [
        at({ type: "display", kind: "chart", data: { skill: "bazi" } }),
        at({ type: "compacted", folded_messages: 12, summary_tokens: 300 }),
        { run_id: "", seq: 0, ts: "", type: "skills_changed", changes: [{ name: "bazi", change: "invalid", problems: ["SKILL.md:1:1: x"] }] },
      ],
      s,
    );
    expect(reply(s).displays).toEqual([{ kind: "chart", data: { skill: "bazi" } }]);
    expect(s.notices).toContain("compacted:12");
    expect(s.skillChanges).toEqual({ bazi: "invalid" });
  });

  it("remembers the last stored data a tool changed, of a skill or of the profile", () => {
    let s = feed(base.slice(0, 2));
    s = feed([at({ type: "state_changed", skill: "life_coach", paths: ["goals", "journal"] })], s);
    expect(s.stateChange).toEqual({ skill: "life_coach", paths: ["goals", "journal"] });
    s = feed([at({ type: "state_changed", paths: ["birth_info"] })], s);
    expect(s.stateChange).toEqual({ skill: null, paths: ["birth_info"] });
  });

  it("follows a protocol from invitation through progress, pause and completion", () => {
    let s = feed([
      at({
        type: "protocol_invitation",
        skill: "lifecoach",
        protocol_id: "dankoe",
        title: "一天重置",
        description: "六步",
        estimated_time: "1 天",
        actions: [
          { label: "开始重置", value: "start" },
          { label: "稍后再说", value: "later" },
        ],
      }),
    ]);
    expect(s.protocol?.status).toBe("invited");
    expect(s.protocol?.invitation?.actions.map((a) => a.value)).toEqual(["start", "later"]);
    s = feed(
      [
        at({ type: "protocol_progress", protocol_id: "dankoe", protocol_run_id: "p1", step: 2, total_steps: 6, step_name: "反愿景", phase: "morning", progress: 1 / 6 }),
        at({ type: "protocol_paused", protocol_id: "dankoe", protocol_run_id: "p1", step: 2, total_steps: 6 }),
      ],
      s,
    );
    expect(s.protocol).toMatchObject({ status: "paused", runId: "p1", step: 2, totalSteps: 6, stepName: "反愿景", invitation: null });
    s = feed([at({ type: "protocol_completed", protocol_id: "dankoe", protocol_run_id: "p1", summary: "完成" })], s);
    expect(s.protocol).toMatchObject({ status: "completed", progress: 1, summary: "完成" });
    s = feed([at({ type: "protocol_cancelled", protocol_id: "weekly_review", protocol_run_id: "p2", reason: "太累" })], s);
    expect(s.protocol).toMatchObject({ protocolId: "weekly_review", runId: "p2", status: "cancelled", summary: "太累" });
  });

  it("shows an invitation the next message did not accept as lapsed, and a new one as invited", () => {
    const invitation = at({ type: "protocol_invitation", skill: "lifecoach", protocol_id: "dankoe", title: "一天重置", description: "d", actions: [] });
    let s = feed([invitation, at({ type: "protocol_invitation_lapsed", skill: "lifecoach", protocol_id: "dankoe" })]);
    expect(s.protocol).toMatchObject({ protocolId: "dankoe", status: "lapsed", runId: null });
    expect(s.protocol?.invitation?.title).toBe("一天重置");
    // A lapse of another protocol's invitation changes nothing on screen.
    const other = feed([at({ type: "protocol_invitation_lapsed", skill: "lifecoach", protocol_id: "weekly_review" })], s);
    expect(other).toBe(s);
    s = feed([invitation], s);
    expect(s.protocol?.status).toBe("invited");
  });

  it("keeps the invitation's skill and the names of the steps seen, by step", () => {
    const progress = (step: number, step_name: string) =>
      at({ type: "protocol_progress", protocol_id: "dankoe", protocol_run_id: "p1", step, total_steps: 6, step_name, phase: "morning", progress: (step - 1) / 6 });
    let s = feed([
      at({ type: "protocol_invitation", skill: "lifecoach", protocol_id: "dankoe", title: "t", description: "d", actions: [] }),
      progress(1, "觉察痛点"),
      progress(2, "反愿景"),
    ]);
    expect(s.protocol).toMatchObject({ skill: "lifecoach", step: 2, stepNames: ["觉察痛点", "反愿景"], declined: false });
    // A resumed run starts at its step: earlier names stay unknown, not undefined.
    s = feed([at({ type: "protocol_progress", protocol_id: "weekly_review", protocol_run_id: "p9", step: 3, total_steps: 4, step_name: "下周", progress: 0.5 })], s);
    expect(s.protocol).toMatchObject({ protocolId: "weekly_review", skill: null, stepNames: ["", "", "下周"] });
    // An event that names every step gives the steps ahead their names too.
    s = feed(
      [at({ type: "protocol_progress", protocol_id: "weekly_review", protocol_run_id: "p9", step: 1, total_steps: 3, step_name: "回顾", progress: 0, step_names: ["回顾", "卡点", "下周"] })],
      s,
    );
    expect(s.protocol).toMatchObject({ step: 1, stepNames: ["回顾", "卡点", "下周"], stepNamesEn: [] });
    // English names ride along when the protocol has them, and stay for the events without.
    s = feed(
      [
        at({
          type: "protocol_progress",
          protocol_id: "weekly_review",
          protocol_run_id: "p9",
          step: 2,
          total_steps: 3,
          step_name: "卡点",
          progress: 1 / 3,
          step_names: ["回顾", "卡点", "下周"],
          step_names_en: ["Review", "Blocks", "Next week"],
        }),
        at({ type: "protocol_progress", protocol_id: "weekly_review", protocol_run_id: "p9", step: 3, total_steps: 3, step_name: "下周", progress: 2 / 3 }),
      ],
      s,
    );
    expect(s.protocol).toMatchObject({ step: 3, stepNames: ["回顾", "卡点", "下周"], stepNamesEn: ["Review", "Blocks", "Next week"] });
  });

  it("keeps the safety notice's resources for the screen", () => {
    const s = feed([
      at({
        type: "safety_notice",
        risk: "acute",
        category: "suicide",
        resources: [{ name: "全国心理援助热线", number: "12356", note: "24小时" }],
        locale: "zh-CN",
      }),
    ]);
    expect(s.safety).toEqual({
      risk: "acute",
      category: "suicide",
      resources: [{ name: "全国心理援助热线", number: "12356", note: "24小时" }],
      locale: "zh-CN",
      folded: false,
    });
    expect(initialChatState.safety).toBeNull();
  });

  it("marks a reply the data folder could not hold as unsaved", () => {
    const events = fixture("text");
    const last = events.findIndex((e) => e.type === "run_finished");
    const unsaved = at({ type: "reply_unsaved", message: "cannot save to /d/vibe.db: the disk is full" });
    const s = feed([...events.slice(0, last), { ...unsaved, run_id: events[0]!.run_id }, ...events.slice(last)]);
    expect(s.messages.at(-1)).toMatchObject({ role: "assistant", unsaved: true });
    expect(feed(events).messages.at(-1)).toMatchObject({ unsaved: false });
  });

  it("shows nothing for the model's safety check itself (its verdict arrives as a notice or not at all)", () => {
    const before = feed(fixture("text"));
    const after = feed([at({ type: "safety_check", risk: null, category: null, rule: null, fallback_reason: null })], before);
    expect(after).toEqual(before);
  });

  it("keeps a recorded run's safety notice through its supportive reply", () => {
    const s = feed(fixture("safety"));
    expect(s.safety?.risk).toBe("acute");
    expect(s.safety?.resources.map((r) => r.number)).toContain("12356");
    expect(s.messages.at(-1)).toMatchObject({ role: "assistant", status: "done" });
    expect(s.messages.at(-1)?.role === "assistant" && s.messages.at(-1)?.text).toContain("你不必一个人扛着");
  });

  it("leaves a conversation untouched by sync's status (it belongs to Settings → Sync)", () => {
    const s = feed(base.slice(0, 3));
    const status = { enabled: false, target: null, target_settings: null, device_id: null, pending_changes: 0, last_sync: null, devices: [], paused: false, activity: { running: true, last_run_at: null, last_run: null, last_error: null } };
    expect(feed([{ run_id: "", seq: 0, ts: "", type: "sync_changed", status }], s)).toEqual(s);
  });

  it("leaves a conversation untouched by model downloads (they belong to Settings)", () => {
    const s = feed(base.slice(0, 3));
    const after = feed(
      [
        { run_id: "", seq: 0, ts: "", type: "model_download_progress", id: "m", received: 1, total: 2 },
        { run_id: "", seq: 1, ts: "", type: "model_download_failed", id: "m", error: { kind: "cancelled", message: "x" } },
        { run_id: "", seq: 0, ts: "", type: "model_download_finished", id: "m", size_bytes: 2, sha256: "ab" },
      ],
      s,
    );
    expect(after).toEqual(s);
  });

  it("leaves the state untouched for events of another run", () => {
    const s = feed(base.slice(0, 3));
    const after = reduce(s, { ...at({ type: "assistant_delta", text: "x" }), run_id: "other" });
    expect(reply(after).text).toBe(reply(s).text);
  });

  it("has seen every event type across these tests", () => {
    expect(Object.keys(ALL_TYPES).filter((t) => !covered.has(t))).toEqual([]);
  });
});
