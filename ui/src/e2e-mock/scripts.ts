// Which recorded run the mock shell replays for a message: chosen by a word in the message,
// so a browser test picks its scenario by what it types. The runs are real `vibe chat --json`
// output (fixtures/, captured by fixtures/capture.sh).

import type { Envelope, SafetyNoticeView } from "../wire";
import text from "../../fixtures/text.jsonl?raw";
import plan from "../../fixtures/skill-plan.jsonl?raw";
import approved from "../../fixtures/approval-granted.jsonl?raw";
import denied from "../../fixtures/approval-denied.jsonl?raw";
import modelError from "../../fixtures/model-error.jsonl?raw";
import safety from "../../fixtures/safety.jsonl?raw";
import invite from "../../fixtures/protocol-invite.jsonl?raw";

export interface Script {
  events: Envelope[];
  after: { granted: Envelope[]; denied: Envelope[] } | null;
}

export function parseJsonl(src: string): Envelope[] {
  return src
    .split("\n")
    .filter((l) => l.trim() !== "")
    .map((l) => JSON.parse(l) as Envelope);
}

/** The events after the approval decision of a recorded run. */
function afterDecision(events: Envelope[]): Envelope[] {
  const i = events.findIndex((e) => e.type === "approval_resolved");
  return events.slice(i + 1);
}

const CALENDAR_TOOL = "mcp__calendar__list_events";

/** A recorded `run_script` event as the calendar connection's `list_events` would send it. */
function connectionTool(e: Envelope): Envelope {
  if ((e.type === "tool_call" || e.type === "tool_result") && e.name === "run_script") return { ...e, name: CALENDAR_TOOL };
  if (e.type === "approval_required")
    return {
      ...e,
      tool: CALENDAR_TOOL,
      reason: "calls the tool list_events of the connection calendar (an outside program or service)",
      connection: { server: "calendar", tool: "list_events", read_only: true, open_world: true },
    };
  return e;
}

/** The messages the mocked safety screen finds at risk (the core's rules decide in the app). */
export const AT_RISK = /不想活/;

/** The mocked screen of what the person writes in the journal or a check-in: the recorded
 * chat notice's risk and contacts when `text` is at risk (as the core's `journal_safety.rs`). */
export function noticeFor(text: string): SafetyNoticeView | null {
  if (!AT_RISK.test(text)) return null;
  const notice = parseJsonl(safety).find((e) => e.type === "safety_notice");
  if (notice?.type !== "safety_notice") return null;
  return { risk: notice.risk, category: notice.category, resources: notice.resources, locale: notice.locale };
}

export function pickScript(message: string): Script {
  const m = message.toLowerCase();
  if (m.startsWith("bench")) {
    // The streaming benchmark: a live run that waits for deltas pushed by `__vibeMock.emit`.
    const start = parseJsonl(text).filter((e) => e.type === "run_started" || e.type === "round_started");
    return { events: start, after: null };
  }
  if (m.includes("script") || m.includes("脚本")) {
    const granted = parseJsonl(approved);
    const upTo = granted.findIndex((e) => e.type === "approval_required");
    return {
      events: granted.slice(0, upTo + 1),
      after: { granted: afterDecision(granted), denied: afterDecision(parseJsonl(denied)) },
    };
  }
  if (m.includes("calendar") || m.includes("日历")) {
    // The script run, as a connected server's tool: the calendar's `list_events`.
    const asConnection = (events: Envelope[]) => events.map(connectionTool);
    const granted = asConnection(parseJsonl(approved));
    const upTo = granted.findIndex((e) => e.type === "approval_required");
    return {
      events: granted.slice(0, upTo + 1),
      after: { granted: afterDecision(granted), denied: afterDecision(asConnection(parseJsonl(denied))) },
    };
  }
  if (m.includes("重置") || m.includes("reset")) return { events: parseJsonl(invite), after: null };
  if (AT_RISK.test(m)) return { events: parseJsonl(safety), after: null };
  if (m.includes("error") || m.includes("出错")) return { events: parseJsonl(modelError), after: null };
  if (m.includes("plan") || m.includes("计划")) return { events: parseJsonl(plan), after: null };
  return { events: parseJsonl(text), after: null };
}
