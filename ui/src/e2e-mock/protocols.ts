// The mock shell's coaching protocols: a few stored runs (completed, paused, cancelled) for the
// Protocols screen, `start_protocol` and friends, the invitation's Start button (a turn that
// starts the run and asks the first question, as the core's chat service does), the report
// export (recorded, not written), an invitation lapsing when the next message does not agree,
// and — while a run the webview started is active — each
// message answers the current step
// the way the real engine's `advance_protocol_step` does (progress, then completion).

import type { Envelope, Event, ProtocolRunView, ProtocolView } from "../wire";
import type { JsonValue } from "../wire/serde_json/JsonValue";
import { reply, type Call } from "./call";

const STEPS: Array<[string, string, string]> = [
  ["觉察痛点", "morning", "Name the pain"],
  ["反愿景", "morning", "Anti-vision"],
  ["最小可行愿景", "morning", "Minimum viable vision"],
  ["打断自动驾驶", "daytime", "Break the autopilot"],
  ["晚间整合", "evening", "Evening integration"],
  ["游戏计划", "evening", "Game plan"],
];

export const PROTOCOLS: ProtocolView[] = [
  { skill: "lifecoach", id: "dankoe", version: 1, title: "一日人生重置", title_en: "One-Day Life Reset", description: "参考 Dan Koe 的方法，一天内分早、中、晚重置你的人生方向。", estimated_time: "60–90 分钟", steps: 6 },
  { skill: "lifecoach", id: "weekly_review", version: 1, title: "每周回顾", title_en: "Weekly Review", description: "回顾一周：做成了什么、卡在哪里、下周的一件事。", estimated_time: "约 20 分钟", steps: 4 },
];

const run = (id: string, protocol_id: string, status: ProtocolRunView["status"], step: number, total: number, day: number): ProtocolRunView => ({
  id,
  skill: "lifecoach",
  protocol_id,
  protocol_version: 1,
  status,
  step,
  total_steps: total,
  data: {},
  summaries: {},
  conversation_id: null,
  model: "coach-demo",
  cancel_reason: status === "cancelled" ? "太累了，改天再说" : null,
  started_at: `2026-11-${String(day).padStart(2, "0")}T08:00:00Z`,
  last_activity_at: `2026-11-${String(day).padStart(2, "0")}T09:30:00Z`,
  completed_at: status === "completed" ? `2026-11-${String(day).padStart(2, "0")}T21:00:00Z` : null,
  answers: [],
  step_names: protocol_id === "dankoe" ? STEPS.map(([n]) => n) : [],
  step_names_en: protocol_id === "dankoe" ? STEPS.map(([, , en]) => en) : [],
});

/** A few whole replies the mock takes as agreeing (the core's list is longer). */
const AGREEMENTS = ["好", "好的", "好，开始吧", "开始", "ok", "yes"];

const ev = (e: Event): Envelope => ({ run_id: "", seq: 0, ts: new Date().toISOString(), ...e }) as Envelope;

export function createProtocols() {
  const runs: ProtocolRunView[] = [
    run("0193a2b4-done", "dankoe", "completed", 6, 6, 20),
    run("0193a2b4-paus", "weekly_review", "paused", 2, 4, 22),
    run("0193a2b4-canc", "weekly_review", "cancelled", 1, 4, 18),
  ];
  /** Runs the webview started: messages answer their steps. */
  let live: ProtocolRunView | null = null;
  let calls = 0;

  const progress = (r: ProtocolRunView): Event => {
    const [name, phase] = STEPS[r.step - 1] ?? [`step ${r.step}`, "evening"];
    const names = r.protocol_id === "dankoe" ? STEPS.map(([n]) => n) : [];
    const namesEn = r.protocol_id === "dankoe" ? STEPS.map(([, , en]) => en) : [];
    return {
      type: "protocol_progress",
      protocol_id: r.protocol_id,
      protocol_run_id: r.id,
      step: r.step,
      total_steps: r.total_steps,
      step_name: name,
      phase,
      progress: (r.step - 1) / r.total_steps,
      step_names: names,
      step_names_en: namesEn,
    };
  };
  const touch = (r: ProtocolRunView) => {
    r.last_activity_at = new Date().toISOString();
    runs.sort((a, b) => b.last_activity_at.localeCompare(a.last_activity_at));
  };
  const find = (id: unknown) => {
    const r = runs.find((x) => x.id === id);
    if (!r) throw { error: { kind: "not_found", message: `no protocol run ${String(id)}` } };
    return r;
  };

  /** The events of a message that answers the live run's current step, or null. */
  function answer(text: string): Envelope[] | null {
    const r = live;
    if (!r || r.status !== "active") return null;
    const callId = `call_p${++calls}`;
    const out: Event[] = [
      { type: "run_started", conversation_id: "", phase: "phase2", skill: "lifecoach", user_message: text, model: "coach-demo" },
      { type: "round_started", round: 1 },
      { type: "tool_call", id: callId, name: "advance_protocol_step", arguments: { step_data: { answer: text }, step_summary: text } },
    ];
    (r.data as Record<string, unknown>)[`step_${r.step}`] = { answer: text };
    r.answers.push({ step: r.step, title: STEPS[r.step - 1]?.[0] ?? `step ${r.step}`, title_en: STEPS[r.step - 1]?.[2] ?? null, fields: [{ key: "answer", label: "你的回答", label_en: "Your answer", text }] });
    let reply: string;
    // The engine's answer: the step saved and the next one, or the run complete.
    let result: JsonValue;
    if (r.step >= r.total_steps) {
      result = { status: "completed" };
      r.status = "completed";
      r.completed_at = new Date().toISOString();
      live = null;
      out.push({ type: "protocol_completed", protocol_id: r.protocol_id, protocol_run_id: r.id, summary: "你的人生地图完成了：反愿景、愿景、一年目标和每天的杠杆都已记下。" });
      reply = "这一天的重置完成了。你可以随时导出这份报告。";
    } else {
      r.step += 1;
      result = { status: "success", saved_step: r.step - 1, next_step: { step: r.step, total_steps: r.total_steps, title: STEPS[r.step - 1]?.[0] ?? "" } };
      out.push(progress(r));
      reply = `记下了。下一步：${STEPS[r.step - 1]?.[0] ?? ""}。`;
    }
    touch(r);
    out.push(
      { type: "state_changed", skill: "lifecoach", paths: ["protocol"] },
      { type: "tool_result", id: callId, name: "advance_protocol_step", result, is_error: false },
      { type: "round_started", round: 2 },
      { type: "assistant_delta", text: reply },
      { type: "run_finished", stop_reason: "completed", usage: { prompt_tokens: 0, completion_tokens: 0, total_tokens: 0 }, rounds: 2, tool_calls: 1 },
    );
    return out.map(ev);
  }

  /** A new active run of `protocolId`, pausing the skill's other active one; the events. */
  function begin(protocolId: unknown): { run: ProtocolRunView; events: Event[] } {
    const def = PROTOCOLS.find((p) => p.id === protocolId);
    if (!def) throw { error: { kind: "not_found", message: `no protocol ${String(protocolId)}` } };
    const events: Event[] = [];
    for (const other of runs.filter((x) => x.status === "active" && x.skill === def.skill)) {
      other.status = "paused";
      events.push({ type: "protocol_paused", protocol_id: other.protocol_id, protocol_run_id: other.id, step: other.step, total_steps: other.total_steps });
    }
    const r = run(`0193a2b4-live-${++calls}`, def.id, "active", 1, def.steps, 26);
    runs.unshift(r);
    touch(r);
    live = r;
    events.push(progress(r));
    return { run: r, events };
  }

  /** The events of a turn from the invitation's Start button: the run starts and the coach
   * asks the first step's question in the same turn. */
  function choose(protocolId: string, label: string, conversationId: string | null = null): Envelope[] {
    const { run, events } = begin(protocolId);
    run.conversation_id = conversationId; // bound to the invitation's conversation, as the core does
    const out: Event[] = [
      { type: "run_started", conversation_id: "", phase: "phase2", skill: "lifecoach", user_message: label, model: "coach-demo" },
      ...events,
      { type: "round_started", round: 1 },
      { type: "assistant_delta", text: `好，我们开始。第一步「${STEPS[0]?.[0] ?? ""}」：最近哪件事让你最不满意？` },
      { type: "run_finished", stop_reason: "completed", usage: { prompt_tokens: 0, completion_tokens: 0, total_tokens: 0 }, rounds: 1, tool_calls: 0 },
    ];
    return out.map(ev);
  }

  /** Answers a protocol command, or `undefined` when `cmd` is not one. */
  function handle({ cmd, request }: Call): unknown {
    switch (cmd) {
      case "list_protocols":
        return reply(cmd, { protocols: PROTOCOLS });
      case "list_protocol_runs":
        return reply(cmd, { runs });
      case "get_protocol_run":
        return reply(cmd, find(request.run_id));
      case "start_protocol":
        return reply(cmd, begin(request.id));
      case "later_protocol":
        invited = null;
        return reply(cmd, { protocol_id: String(request.id), skill: String(request.skill ?? "lifecoach") });
      case "resume_protocol": {
        const r = find(request.run_id);
        r.status = "active";
        touch(r);
        live = r;
        return reply(cmd, { run: r, events: [progress(r)] });
      }
      case "cancel_protocol": {
        const r = find(request.run_id);
        r.status = "cancelled";
        r.cancel_reason = (request.reason as string | null) ?? null;
        if (live === r) live = null;
        return reply(cmd, { run: r, events: [{ type: "protocol_cancelled", protocol_id: r.protocol_id, protocol_run_id: r.id }] });
      }
      case "export_protocol_report": {
        const r = find(request.run_id);
        const format = String(request.format);
        return reply(cmd, { path: `/home/me/Documents/protocol-${r.id.slice(0, 8)}.${format}`, bytes: 1024 });
      }
      default:
        return undefined;
    }
  }

  /** The invitation shown last and not yet answered, as the core keeps it pending. */
  let invited: string | null = null;

  /** Notes an invitation among a turn's events (it waits for the next message). */
  function note(events: Envelope[]) {
    const inv = events.find((e) => e.type === "protocol_invitation");
    if (inv && inv.type === "protocol_invitation") invited = inv.protocol_id;
  }

  /** The next message after an invitation, when it is not an agreement, lets it lapse (as the
   * core's engine does); a button's turn answers it instead. The event, or null. */
  function lapse(text: string, chosen: boolean): Envelope | null {
    const id = invited;
    invited = null;
    if (!id || chosen || AGREEMENTS.includes(text.trim().toLowerCase())) return null;
    return ev({ type: "protocol_invitation_lapsed", skill: "lifecoach", protocol_id: id });
  }

  /** A message at risk while a run is live: the run is paused, as the core's safety path
   * pauses the skill's active protocol (the event comes right after the notice). */
  function pauseForSafety(): Envelope[] {
    const r = live;
    if (!r || r.status !== "active") return [];
    r.status = "paused";
    touch(r);
    return [ev({ type: "protocol_paused", protocol_id: r.protocol_id, protocol_run_id: r.id, step: r.step, total_steps: r.total_steps })];
  }

  return { handle, answer, choose, note, lapse, pauseForSafety };
}
