// The mock shell's `insights`: the core's series computed over a deterministic seed (the same
// days, moods, feelings, protocols and goals on every run, for screenshots). `?insightsDays=N`
// seeds N days of check-ins (default 90; `?insights=empty` none) ending on `?today=YYYY-MM-DD`
// (default the real today), in the language of `?lang=`.

import type { InsightsRange, InsightsRequest, InsightsView, MoodPoint } from "../wire";
import { reply, type Call } from "./call";

interface Entry {
  date: string;
  id: string;
  mood: number | null;
  feelings: string[];
  checkin: boolean;
}

const DAY = 86_400_000;
const SPAN: Record<InsightsRange, number> = { week: 7, month: 30, quarter: 90, year: 365 };
const FEELINGS = {
  "zh-CN": { low: ["疲惫", "焦虑", "烦躁", "孤单"], mid: ["平静", "专注", "犹豫"], high: ["开心", "感恩", "充满希望", "专注"] },
  en: { low: ["tired", "anxious", "irritable", "lonely"], mid: ["calm", "focused", "unsure"], high: ["happy", "grateful", "hopeful", "focused"] },
};
const ms = (date: string) => Date.parse(`${date}T00:00:00Z`);
const day = (t: number) => new Date(t).toISOString().slice(0, 10);
const mean = (xs: number[]) => (xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : null);

/** mulberry32: a small seeded generator, so every run draws the same days. */
function random(seed: number) {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function seed(today: string, days: number, lang: "zh-CN" | "en"): Entry[] {
  const rnd = random(31);
  const words = FEELINGS[lang];
  const out: Entry[] = [];
  for (let i = days - 1; i >= 0; i--) {
    const date = day(ms(today) - i * DAY);
    const restDay = rnd() < 0.14 && i > 2;
    const base = 3.4 + 0.9 * Math.sin(i / 8) + 0.4 * Math.sin(i / 3.1) - (i > 60 ? 0.4 : 0);
    const checkins = restDay ? 0 : rnd() < 0.12 ? 2 : 1;
    for (let k = 0; k < checkins; k++) {
      const mood = Math.max(1, Math.min(5, Math.round(base + (rnd() - 0.5) * 1.6)));
      const pool = mood <= 2 ? words.low : mood >= 4 ? words.high : words.mid;
      const feelings = [pool[Math.floor(rnd() * pool.length)] as string];
      if (rnd() < 0.35) feelings.push(pool[Math.floor(rnd() * pool.length)] as string);
      out.push({ date, id: `${date}T0${8 + k * 10}:00:00Z`, mood, feelings: [...new Set(feelings)], checkin: true });
    }
    if (!restDay && rnd() < 0.25) out.push({ date, id: `${date}T21:30:00Z`, mood: null, feelings: [], checkin: false });
  }
  return out;
}

export function createInsights(params: URLSearchParams) {
  const lang = params.get("lang") === "en" ? "en" : "zh-CN";
  const today = params.get("today") ?? day(Date.now() - new Date().getTimezoneOffset() * 60_000);
  const days = params.get("insights") === "empty" ? 0 : Number(params.get("insightsDays") ?? 90);
  const entries = seed(today, days, lang);
  const ago = (n: number) => day(ms(today) - n * DAY);
  const en = lang === "en";
  const review = { skill: "lifecoach", protocol_id: "weekly_review", zh: "每周回顾", en: "Weekly review", steps: 5 };
  const reset = { skill: "lifecoach", protocol_id: "dankoe", zh: "一日人生重置", en: "One-day life reset", steps: 6 };
  const runs = days === 0 ? [] : [[reset, 40], [review, 23], [review, 16], [review, 9], [review, 2]].filter(([, n]) => (n as number) < days);
  const goals =
    days === 0
      ? []
      : [
          { id: "career", title: en ? "Move into product design" : "转行成为产品设计师", status: "active", deadline: "2027-06-30", milestones: 5, last_milestone: ago(3) },
          { id: "portfolio", title: en ? "Finish two portfolio case studies" : "完成两个作品集案例", status: "active", deadline: ago(-33), milestones: 2, last_milestone: ago(11) },
          { id: "running", title: en ? "Run three times a week" : "每周跑步三次", status: "paused", deadline: null, milestones: 1, last_milestone: ago(50) },
          { id: "book", title: en ? "Read “The Design of Everyday Things”" : "读完《设计心理学》", status: "done", deadline: null, milestones: 3, last_milestone: ago(20) },
        ];

  function view(request: InsightsRequest): InsightsView {
    const until = request.until ?? today;
    const since = day(ms(until) - (SPAN[request.range] - 1) * DAY);
    const titleIn = (request.lang ?? lang) === "en" ? "en" : "zh";
    const within = (from: string, to: string) => entries.filter((e) => e.date >= from && e.date <= to);
    const inRange = within(since, until);
    const moods = inRange.filter((e) => e.mood !== null);
    const mood_points: MoodPoint[] = moods.map((e) => ({ date: e.date, entry_id: e.id, mood: e.mood as number }));
    const onDay = new Map<string, Entry[]>();
    for (const e of inRange) onDay.set(e.date, [...(onDay.get(e.date) ?? []), e]);
    const byDay = new Map<string, number[]>();
    for (const p of mood_points) byDay.set(p.date, [...(byDay.get(p.date) ?? []), p.mood]);
    const feelingCounts = new Map<string, number>();
    for (const e of inRange) for (const f of e.feelings) feelingCounts.set(f, (feelingCounts.get(f) ?? 0) + 1);
    const completed = runs
      .map(([p, n], i) => ({ p: p as typeof review, at: ago(n as number), i }))
      .filter((r) => r.at >= since && r.at <= until)
      .map((r) => ({ run_id: `run-${r.i}`, skill: r.p.skill, protocol_id: r.p.protocol_id, title: r.p[titleIn], completed_at: `${r.at}T20:00:00Z`, steps: r.p.steps }));
    const weekSince = day(ms(until) - 6 * DAY);
    const week = within(weekSince, until);
    const weekMoods = week.flatMap((e) => (e.mood === null ? [] : [e.mood]));
    const previous = within(day(ms(until) - 13 * DAY), day(ms(until) - 7 * DAY)).flatMap((e) => (e.mood === null ? [] : [e.mood]));
    const tally = [1, 2, 3, 4, 5].map((m) => weekMoods.filter((x) => x === m).length);
    const top = Math.max(...tally);
    return {
      since,
      until,
      mood_points,
      mood_days: [...byDay].map(([date, moods]) => ({ date, mean: mean(moods) as number, count: moods.length })),
      days: Array.from({ length: SPAN[request.range] }, (_, i) => {
        const date = day(ms(since) + i * DAY);
        const those = onDay.get(date) ?? [];
        return { date, checkins: those.filter((e) => e.checkin).length, journal: those.filter((e) => !e.checkin).length };
      }),
      feelings: [...feelingCounts].map(([feeling, count]) => ({ feeling, count })).sort((a, b) => b.count - a.count || a.feeling.localeCompare(b.feeling)),
      protocols: completed,
      goals,
      week: {
        since: weekSince,
        until,
        checkins: week.filter((e) => e.checkin).length,
        journal_entries: week.filter((e) => !e.checkin).length,
        active_days: new Set(week.map((e) => e.date)).size,
        mood_mode: weekMoods.length ? tally.lastIndexOf(top) + 1 : null,
        mood_mean: mean(weekMoods),
        previous_mood_mean: mean(previous),
        protocols_completed: completed.filter((p) => p.completed_at.slice(0, 10) >= weekSince).map((p) => p.title),
      },
    };
  }

  /** The coach's words for the week, as a model would say them from its figures. */
  function words(request: { until?: string | null; lang?: string | null }) {
    const { week } = view({ range: "week", until: request.until ?? null, lang: request.lang ?? null });
    const text =
      request.lang === "en"
        ? `A steady week: ${week.checkins} check-ins over ${week.active_days} days, and you kept showing up for yourself. Try one small walk before the weekend.`
        : `这一周很稳：${week.active_days} 天里签到了 ${week.checkins} 次，你一直在照顾自己。周末前试着散一次步吧。`;
    return { text, week };
  }

  function handle({ cmd, request }: Call): unknown {
    if (cmd === "insights_week_words") return reply(cmd, new Promise((r) => setTimeout(() => r(words(request)), 300)));
    return cmd === "insights" ? reply(cmd, view(request)) : undefined;
  }
  return { handle };
}
