// The mock shell's Today screen (`today`) and conversation starters (`conversation_starters`),
// built as the core builds them from what the other mock modules hold: the day's check-ins and
// journal entries (./journal.ts), the streak of days with a check-in or an entry the person
// wrote, a journaling prompt rotating by day, the active protocol run (./protocols.ts), the
// reminders still open (./reminders.ts), the conversation updated last, and the crisis notice of
// the day's words at risk (the mocked screen of ./scripts.ts).
// `?prompts=none`: no skill declares prompts or starters (the empty states).

import type { ActiveProtocolView, ConversationSummary, JournalEntryView, ProtocolList, ProtocolRunList, ReminderList, StarterView, StreakView } from "../wire";
import { reply, type Call } from "./call";
import { localDay } from "./journal";
import { noticeFor } from "./scripts";

const PROMPTS: Record<"zh-CN" | "en", string[]> = {
  "zh-CN": ["今天有哪一刻让你觉得自己在靠近想要的生活？", "此刻最占据你心思的一件事是什么？", "今天你想感谢谁，为什么？"],
  en: ["When today did you feel closer to the life you want?", "What is taking up most of your mind right now?", "Who would you like to thank today, and why?"],
};

const STARTERS: Record<"zh-CN" | "en", Array<[string, string, string]>> = {
  "zh-CN": [
    ["lifecoach", "人生教练", "帮我回顾一下这一周"],
    ["lifecoach", "人生教练", "我想重置一下我的生活"],
    ["bazi", "八字命理", "从八字看看我最近的状态"],
  ],
  en: [
    ["lifecoach", "Life Coach", "Help me look back on this week"],
    ["lifecoach", "Life Coach", "I want to reset my life"],
    ["bazi", "Bazi Four Pillars", "What does my chart say about this season?"],
  ],
};

const dayNumber = (d: string) => Math.floor(Date.parse(`${d}T00:00:00Z`) / 86_400_000);

/** Days in a row with a check-in or an entry the person wrote (the coach's do not count). */
export function streak(entries: readonly JournalEntryView[], today: string): StreakView {
  const days = new Set(entries.filter((e) => e.source !== "coach").map((e) => dayNumber(e.date)));
  const t = dayNumber(today);
  const today_done = days.has(t);
  let run = 0;
  for (let d = today_done ? t : t - 1; days.has(d); d--) run++;
  let longest = 0;
  for (const d of days) {
    if (days.has(d - 1)) continue;
    let n = 0;
    while (days.has(d + n)) n++;
    longest = Math.max(longest, n);
  }
  return { days: run, today_done, longest };
}

interface Sources {
  entries: () => JournalEntryView[];
  /** The other modules' answers to a command (protocols, reminders). */
  ask: (call: Call) => unknown;
  lastConversation: () => ConversationSummary | null;
  noPrompts: boolean;
}

export function createToday({ entries, ask, lastConversation, noPrompts }: Sources) {
  function active(lang: "zh-CN" | "en"): ActiveProtocolView | null {
    const { runs } = ask({ cmd: "list_protocol_runs", request: { skill: null } }) as ProtocolRunList;
    const run = runs.find((r) => r.status === "active");
    if (!run) return null;
    const { protocols } = ask({ cmd: "list_protocols", request: undefined }) as ProtocolList;
    const def = protocols.find((p) => p.id === run.protocol_id);
    const title = (lang === "en" ? def?.title_en : null) ?? def?.title ?? run.protocol_id;
    const steps = ["觉察痛点", "反愿景", "最小可行愿景", "打断自动驾驶", "晚间整合", "游戏计划"];
    return { run, title, step_title: steps[run.step - 1] ?? `step ${run.step}` };
  }

  function handle({ cmd, request }: Call): unknown {
    switch (cmd) {
      case "today": {
        const lang = request.lang === "en" ? "en" : "zh-CN";
        const date = request.date ?? localDay();
        const all = entries();
        const ofDay = all.filter((e) => e.date === date);
        const prompts = PROMPTS[lang];
        // What the person wrote that day, newest first: the latest words at risk name the notice.
        const written = ofDay.filter((e) => e.source !== "coach").sort((a, b) => b.id.localeCompare(a.id));
        const safety = written.map((e) => noticeFor(e.text)).find((n) => n !== null) ?? null;
        const { reminders } = ask({ cmd: "reminder_notices", request: undefined }) as ReminderList;
        return reply(cmd, {
          date,
          checkins: ofDay.filter((e) => e.source === "checkin"),
          journal: ofDay.filter((e) => e.source !== "checkin"),
          streak: streak(all, date),
          prompt: noPrompts ? null : { skill: "lifecoach", text: prompts[dayNumber(date) % prompts.length] ?? "" },
          protocol: active(lang),
          reminders: reminders.filter((r) => r.due && !r.answered),
          last_conversation: lastConversation(),
          ...(safety ? { safety } : {}),
        });
      }
      case "conversation_starters": {
        const lang = request.lang === "en" ? "en" : "zh-CN";
        const starters: StarterView[] = noPrompts ? [] : STARTERS[lang].map(([skill, skill_name, text]) => ({ skill, skill_name, text }));
        return reply(cmd, { starters });
      }
      default:
        return undefined;
    }
  }
  return { handle };
}
