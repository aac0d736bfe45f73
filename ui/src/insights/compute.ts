// The Insights screen's pure computations: dates of the range, the mood chart's axis ticks and
// series, the heat map's levels and calendar, and every sentence a screen reader reads in place
// of a chart. Numbers come from the core (`insights`); this module only arranges and words
// them. No React, no DOM, no i18next instance (a `t` function is passed in), so vitest checks
// it in both languages.

import type { DayActivity, InsightsRange, InsightsView, MoodPoint, WeekSummary } from "../wire";

/** Translates a key of the resource files (i18next's `t`, or a stand-in in tests). */
export type Translate = (key: string, vars?: Record<string, string | number>) => string;

const DAY_MS = 86_400_000;

/** `YYYY-MM-DD` as a UTC midnight timestamp (dates here are calendar days, never instants). */
export function dayMs(date: string): number {
  const [y, m, d] = date.split("-").map(Number);
  return Date.UTC(y ?? 1970, (m ?? 1) - 1, d ?? 1);
}

/** `YYYY-MM-DD` of a UTC midnight timestamp. */
export const dayString = (ms: number): string => new Date(ms).toISOString().slice(0, 10);

/** Whole days from `since` to `date`. */
export const dayIndex = (since: string, date: string): number => Math.round((dayMs(date) - dayMs(since)) / DAY_MS);

/** Every day from `since` to `until`, inclusive. */
export function daysBetween(since: string, until: string): string[] {
  const out: string[] = [];
  for (let t = dayMs(since); t <= dayMs(until); t += DAY_MS) out.push(dayString(t));
  return out;
}

/** A day as a person reads it: "Nov 11" / "11月11日" (`month`: "Nov" / "11月"; `year`:
 * "Jun 30, 2027" / "2027年6月30日"; `monthYear`: "Nov 2026" / "2026年11月"). */
export type DayKind = "day" | "month" | "year" | "monthYear";
export function formatDay(date: string, lang: string, kind: DayKind = "day"): string {
  return formatter(lang, kind).format(dayMs(date));
}

/** One formatter per language and kind: making one costs far more than formatting (a year's
 * calendar formats hundreds of days). */
const formatters = new Map<string, Intl.DateTimeFormat>();
function formatter(lang: string, kind: DayKind): Intl.DateTimeFormat {
  const key = `${lang}|${kind}`;
  let f = formatters.get(key);
  if (!f) {
    const opts: Intl.DateTimeFormatOptions = {
      month: "short",
      timeZone: "UTC",
      ...(kind === "month" || kind === "monthYear" ? {} : { day: "numeric" }),
      ...(kind === "year" || kind === "monthYear" ? { year: "numeric" } : {}),
    };
    f = new Intl.DateTimeFormat(lang, opts);
    formatters.set(key, f);
  }
  return f;
}

/** A mean as shown: one decimal. */
export const formatMean = (x: number): string => (Math.round(x * 10) / 10).toFixed(1);

/** Names joined as the language joins a list ("A, B and C" / "A、B和C"). */
export const joinList = (items: string[], lang: string): string => new Intl.ListFormat(lang, { type: "conjunction" }).format(items);

export interface Tick {
  /** Days from the range's first day. */
  index: number;
  date: string;
  label: string;
}

/** The mood chart's x-axis ticks: every day for a week, weekly (ending on `until`) for a month,
 * the 1st and the 15th for a quarter, each month's 1st for a year — never more than 14. */
export function axisTicks(since: string, until: string, lang: string): Tick[] {
  const days = daysBetween(since, until);
  const n = days.length;
  let picked: string[];
  let kind: "day" | "month" = "day";
  if (n <= 14) picked = days;
  else if (n <= 31) picked = days.filter((_, i) => (n - 1 - i) % 7 === 0);
  else if (n <= 92) picked = days.filter((d) => d.endsWith("-01") || d.endsWith("-15"));
  else {
    picked = days.filter((d) => d.endsWith("-01"));
    kind = "month";
  }
  while (picked.length > 14) picked = picked.filter((_, i) => i % 2 === 0);
  return picked.map((date) => ({ index: dayIndex(since, date), date, label: formatDay(date, lang, kind) }));
}

/** The mood chart's data, aligned on every day of the range: x (day index), the daily mean
 * (null on a day without a mood) and one series per n-th check-in of a day (the points). */
export function moodSeries(view: Pick<InsightsView, "since" | "until" | "mood_days" | "mood_points">): {
  x: number[];
  mean: (number | null)[];
  points: (number | null)[][];
} {
  const n = dayIndex(view.since, view.until) + 1;
  const x = Array.from({ length: n }, (_, i) => i);
  const mean: (number | null)[] = new Array(n).fill(null);
  for (const d of view.mood_days) {
    const i = dayIndex(view.since, d.date);
    if (i >= 0 && i < n) mean[i] = d.mean;
  }
  const points: (number | null)[][] = [];
  const seen = new Map<number, number>();
  for (const p of view.mood_points) {
    const i = dayIndex(view.since, p.date);
    if (i < 0 || i >= n) continue;
    const k = seen.get(i) ?? 0;
    seen.set(i, k + 1);
    if (!points[k]) points[k] = new Array(n).fill(null);
    (points[k] as (number | null)[])[i] = p.mood;
  }
  return { x, mean, points };
}

export interface MoodStats {
  count: number;
  mean: number;
  low: MoodPoint;
  high: MoodPoint;
}

/** The check-ins' count and mean, and the lowest and highest mood (the latest day of each). */
export function moodStats(points: MoodPoint[]): MoodStats | null {
  const [first] = points;
  if (!first) return null;
  let low = first;
  let high = first;
  let sum = 0;
  for (const p of points) {
    sum += p.mood;
    if (p.mood <= low.mood) low = p;
    if (p.mood >= high.mood) high = p;
  }
  return { count: points.length, mean: sum / points.length, low, high };
}

/** What a screen reader reads for the mood chart. */
export function moodAlt(view: Pick<InsightsView, "mood_points">, range: InsightsRange, lang: string, t: Translate): string {
  const span = t(`insights.span.${range}`);
  const s = moodStats(view.mood_points);
  if (!s) return t("insights.mood.altNone", { span });
  return t("insights.mood.alt", {
    span,
    count: s.count,
    mean: formatMean(s.mean),
    low: s.low.mood,
    lowDate: formatDay(s.low.date, lang),
    high: s.high.mood,
    highDate: formatDay(s.high.date, lang),
  });
}

/** The heat map's shade of a day: 0 (nothing) to 4 (four or more check-ins and entries). */
export function heatLevel(day: DayActivity): 0 | 1 | 2 | 3 | 4 {
  return Math.min(4, day.checkins + day.journal) as 0 | 1 | 2 | 3 | 4;
}

/** The heat map as columns of weeks, Monday at the top; days outside the range are null. Each
 * column that holds a month's 1st (and the first) carries the month's short name. */
export function calendar(days: DayActivity[], lang: string): { weeks: (DayActivity | null)[][]; months: { column: number; label: string }[] } {
  const weeks: (DayActivity | null)[][] = [];
  const months: { column: number; label: string }[] = [];
  const first = days[0];
  if (!first) return { weeks, months };
  const lead = (new Date(dayMs(first.date)).getUTCDay() + 6) % 7; // Monday = 0
  const cells: (DayActivity | null)[] = [...new Array<null>(lead).fill(null), ...days];
  while (cells.length % 7 !== 0) cells.push(null);
  for (let i = 0; i < cells.length; i += 7) weeks.push(cells.slice(i, i + 7));
  weeks.forEach((week, column) => {
    const firstOfMonth = week.find((d) => d?.date.endsWith("-01"));
    const label = firstOfMonth ?? (column === 0 ? first : undefined);
    if (label) months.push({ column, label: formatDay(label.date, lang, "month") });
  });
  // A first label crowded by the next month's: drop the first.
  if (months.length > 1 && (months[1]?.column ?? 0) - (months[0]?.column ?? 0) < 3) months.shift();
  return { weeks, months };
}

/** What a screen reader reads for the heat map. */
export function calendarAlt(days: DayActivity[], range: InsightsRange, t: Translate): string {
  const checkinDays = days.filter((d) => d.checkins > 0).length;
  const journalDays = days.filter((d) => d.journal > 0).length;
  let longest = 0;
  let run = 0;
  for (const d of days) {
    run = d.checkins > 0 ? run + 1 : 0;
    longest = Math.max(longest, run);
  }
  return t("insights.calendar.alt", { span: t(`insights.span.${range}`), checkinDays, days: days.length, journalDays, longest });
}

/** A day's cell label (its tooltip). */
export const dayLabel = (d: DayActivity, lang: string, t: Translate): string =>
  t("insights.calendar.cell", { date: formatDay(d.date, lang), checkins: d.checkins, journal: d.journal });

/** Each feeling's bar length in percent of the most frequent one. */
export function feelingShares(feelings: { feeling: string; count: number }[]): { feeling: string; count: number; percent: number }[] {
  const max = Math.max(1, ...feelings.map((f) => f.count));
  return feelings.map((f) => ({ ...f, percent: Math.round((f.count / max) * 100) }));
}

/** The weekly summary card's two sentences: what happened, and the mood against last week. */
export function weekCard(week: WeekSummary, lang: string, t: Translate): { headline: string; compare: string | null } {
  const parts: string[] = [
    week.checkins === 0 ? t("insights.week.noCheckins") : week.checkins === 1 ? t("insights.week.checkinsOne") : t("insights.week.checkinsMany", { count: week.checkins }),
  ];
  if (week.journal_entries > 0)
    parts.push(week.journal_entries === 1 ? t("insights.week.journalOne") : t("insights.week.journalMany", { count: week.journal_entries }));
  if (week.mood_mode !== null) parts.push(t("insights.week.moodMostly", { mood: week.mood_mode, word: t(`insights.moodWord.${week.mood_mode}`) }));
  if (week.protocols_completed.length > 0)
    parts.push(t("insights.week.finished", { titles: joinList(week.protocols_completed.map((p) => t("insights.week.quoted", { title: p })), lang) }));
  const headline = t("insights.week.headline", { parts: parts.join(t("insights.week.sep")) });
  let compare: string | null = null;
  if (week.mood_mean !== null) {
    const mean = formatMean(week.mood_mean);
    if (week.previous_mood_mean === null) compare = t("insights.week.noPrevious", { mean });
    else {
      const previous = formatMean(week.previous_mood_mean);
      const key = mean === previous ? "same" : Number(mean) > Number(previous) ? "up" : "down";
      compare = t(`insights.week.${key}`, { mean, previous });
    }
  }
  return { headline, compare };
}

/** No check-in and no entry in the range: the screen invites a first check-in. */
export const isEmpty = (view: Pick<InsightsView, "days" | "mood_points">): boolean =>
  view.mood_points.length === 0 && view.days.every((d) => d.checkins === 0 && d.journal === 0);

export interface MoodRow {
  /** The day, or the month's first day. */
  date: string;
  /** A day ("Nov 11") or, for ranges longer than a month, a month ("Nov 2026"). */
  label: string;
  mean: number;
  low: number;
  high: number;
  count: number;
}

/** The rows of the mood table a screen reader reads in place of the chart, newest first: one per
 * day with a mood for a week or a month, one per month for longer ranges (a year of days is
 * too long to listen to, and too many rows to lay out). */
export function moodRows(points: MoodPoint[], range: InsightsRange, lang: string): MoodRow[] {
  const byMonth = range === "quarter" || range === "year";
  const groups = new Map<string, number[]>();
  for (const p of points) {
    const key = byMonth ? `${p.date.slice(0, 7)}-01` : p.date;
    const moods = groups.get(key);
    if (moods) moods.push(p.mood);
    else groups.set(key, [p.mood]);
  }
  return [...groups]
    .map(([date, moods]) => ({
      date,
      label: formatDay(date, lang, byMonth ? "monthYear" : "day"),
      mean: moods.reduce((a, b) => a + b, 0) / moods.length,
      low: Math.min(...moods),
      high: Math.max(...moods),
      count: moods.length,
    }))
    .reverse();
}
