// The Insights screen's computations in both languages: axis ticks per range, the aligned mood
// series, the heat map's levels and calendar, and the sentences read in place of the charts
// and on the weekly card, worded from the real resource files.

import i18next from "i18next";
import { describe, expect, it } from "vitest";
import { resources } from "../i18n";
import type { DayActivity, MoodPoint, WeekSummary } from "../wire";
import { axisTicks, calendar, calendarAlt, daysBetween, feelingShares, formatDay, heatLevel, isEmpty, moodAlt, moodRows, moodSeries, moodStats, weekCard, type Translate } from "./compute";

function translator(lang: "en" | "zh-CN"): Translate {
  const i = i18next.createInstance();
  void i.init({ resources, lng: lang, fallbackLng: false, interpolation: { escapeValue: false }, initAsync: false });
  return (key, vars) => String(i.t(key as never, vars as never));
}
const en = translator("en");
const zh = translator("zh-CN");

const point = (date: string, mood: number, n = 0): MoodPoint => ({ date, mood, entry_id: `${date}T0${n}:00:00Z` });
const day = (date: string, checkins: number, journal = 0): DayActivity => ({ date, checkins, journal });

const WEEK: WeekSummary = {
  since: "2026-11-21",
  until: "2026-11-27",
  checkins: 5,
  journal_entries: 2,
  active_days: 5,
  mood_mode: 4,
  mood_mean: 3.84,
  previous_mood_mean: 3.2,
  protocols_completed: ["每周回顾"],
};

describe("axis ticks", () => {
  it("mark every day of a week", () => {
    const ticks = axisTicks("2026-11-21", "2026-11-27", "en");
    expect(ticks.map((t) => t.index)).toEqual([0, 1, 2, 3, 4, 5, 6]);
    expect(ticks[0]?.label).toBe("Nov 21");
  });
  it("mark every seventh day of a month, ending today", () => {
    const ticks = axisTicks("2026-10-29", "2026-11-27", "zh-CN");
    expect(ticks.map((t) => t.date)).toEqual(["2026-10-30", "2026-11-06", "2026-11-13", "2026-11-20", "2026-11-27"]);
    expect(ticks.at(-1)?.label).toBe("11月27日");
  });
  it("mark the 1st and the 15th in a quarter and each month in a year, in the language", () => {
    expect(axisTicks("2026-08-30", "2026-11-27", "en").map((t) => t.label)).toEqual(["Sep 1", "Sep 15", "Oct 1", "Oct 15", "Nov 1", "Nov 15"]);
    const year = axisTicks("2025-11-28", "2026-11-27", "zh-CN");
    expect(year).toHaveLength(12);
    expect(year[0]).toMatchObject({ date: "2025-12-01", label: "12月", index: 3 });
  });
});

describe("the mood series", () => {
  it("align the daily mean and every check-in on the days of the range", () => {
    const s = moodSeries({
      since: "2026-11-21",
      until: "2026-11-23",
      mood_days: [{ date: "2026-11-21", mean: 3.5, count: 2 }, { date: "2026-11-23", mean: 5, count: 1 }],
      mood_points: [point("2026-11-21", 3), point("2026-11-21", 4, 1), point("2026-11-23", 5)],
    });
    expect(s.x).toEqual([0, 1, 2]);
    expect(s.mean).toEqual([3.5, null, 5]);
    expect(s.points).toEqual([[3, null, 5], [4, null, null]]);
  });
  it("read as a sentence with the count, mean, lowest and highest day", () => {
    const points = [point("2026-11-02", 4), point("2026-11-11", 2), point("2026-11-20", 5), point("2026-11-21", 3)];
    expect(moodStats(points)?.mean).toBe(3.5);
    expect(moodAlt({ mood_points: points }, "month", "en", en)).toBe(
      "Mood over the last 30 days: 4 check-ins, mean 3.5, lowest 2 on Nov 11, highest 5 on Nov 20.",
    );
    expect(moodAlt({ mood_points: points }, "month", "zh-CN", zh)).toBe("最近 30 天的心情：4 次签到，平均 3.5，最低 2 分在 11月11日，最高 5 分在 11月20日。");
    expect(moodAlt({ mood_points: [] }, "week", "en", en)).toBe("No moods recorded in the last 7 days.");
  });
});

describe("the heat map", () => {
  it("shades a day by its check-ins and entries, four and more alike", () => {
    expect([day("d", 0), day("d", 1), day("d", 1, 1), day("d", 2, 1), day("d", 3, 4)].map(heatLevel)).toEqual([0, 1, 2, 3, 4]);
  });
  it("lays the days out in Monday-first weeks with the months named", () => {
    // 2026-11-26 is a Thursday.
    const days = daysBetween("2026-11-26", "2026-12-08").map((d) => day(d, 1));
    const { weeks, months } = calendar(days, "en");
    expect(weeks).toHaveLength(3);
    expect(weeks[0]?.slice(0, 4)).toEqual([null, null, null, day("2026-11-26", 1)]);
    expect(weeks[2]?.at(-1)).toBeNull();
    expect(months).toEqual([{ column: 1, label: "Dec" }]);
  });
  it("reads as a sentence with the days, the journal and the longest run", () => {
    const days = [day("2026-11-21", 1), day("2026-11-22", 1, 1), day("2026-11-23", 0, 1), day("2026-11-24", 2)];
    expect(calendarAlt(days, "week", en)).toBe(
      "In the last 7 days: check-ins on 3 of 4 days, journal entries on 2 days, longest run of check-ins 2 days.",
    );
    expect(calendarAlt(days, "week", zh)).toBe("最近 7 天：4 天中有 3 天签到，2 天写了日记，最长连续签到 2 天。");
  });
});

describe("the weekly card", () => {
  it("says the week in words and compares the mood with the week before", () => {
    expect(weekCard(WEEK, "en", en)).toEqual({
      headline: "This week: 5 check-ins, 2 journal entries, mood mostly 4 (good), you finished “每周回顾”.",
      compare: "Mean mood 3.8, up from 3.2 the week before.",
    });
    expect(weekCard(WEEK, "zh-CN", zh)).toEqual({
      headline: "本周：签到 5 次，写了 2 篇日记，心情多为 4 分（不错），你完成了「每周回顾」。",
      compare: "平均心情 3.8，比上周的 3.2 高。",
    });
  });
  it("words one check-in, several protocols, a lower or equal mood and no week before", () => {
    const one = { ...WEEK, checkins: 1, journal_entries: 0, protocols_completed: ["Weekly review", "Reset"], mood_mean: 2.96, previous_mood_mean: 3.5 };
    expect(weekCard(one, "en", en).headline).toBe("This week: 1 check-in, mood mostly 4 (good), you finished “Weekly review” and “Reset”.");
    expect(weekCard(one, "en", en).compare).toBe("Mean mood 3.0, down from 3.5 the week before.");
    expect(weekCard({ ...WEEK, previous_mood_mean: 3.84 }, "zh-CN", zh).compare).toBe("平均心情 3.8，和上周一样。");
    expect(weekCard({ ...WEEK, previous_mood_mean: null }, "en", en).compare).toBe("Mean mood 3.8; no check-ins the week before to compare with.");
  });
  it("has no mood sentence in a week without check-ins", () => {
    const none = { ...WEEK, checkins: 0, journal_entries: 0, mood_mode: null, mood_mean: null, protocols_completed: [] };
    expect(weekCard(none, "zh-CN", zh)).toEqual({ headline: "本周：还没有签到。", compare: null });
  });
});

describe("the rest", () => {
  it("sizes the feelings' bars against the most frequent", () => {
    expect(feelingShares([{ feeling: "平静", count: 8 }, { feeling: "焦虑", count: 2 }]).map((f) => f.percent)).toEqual([100, 25]);
  });
  it("is empty only without any check-in or entry in the range", () => {
    expect(isEmpty({ mood_points: [], days: [day("2026-11-21", 0)] })).toBe(true);
    expect(isEmpty({ mood_points: [], days: [day("2026-11-21", 0, 1)] })).toBe(false);
  });
});

describe("dates", () => {
  it("say the year only when asked", () => {
    expect(formatDay("2027-06-30", "en", "year")).toBe("Jun 30, 2027");
    expect(formatDay("2027-06-30", "zh-CN", "year")).toBe("2027年6月30日");
    expect(formatDay("2027-06-30", "zh-CN")).toBe("6月30日");
  });
});

describe("the mood table", () => {
  const points = [point("2026-10-30", 2), point("2026-11-02", 4), point("2026-11-02", 5, 1), point("2026-11-20", 3)];
  it("lists days for a month, newest first", () => {
    expect(moodRows(points, "month", "en").map((r) => [r.label, r.mean, r.count])).toEqual([
      ["Nov 20", 3, 1],
      ["Nov 2", 4.5, 2],
      ["Oct 30", 2, 1],
    ]);
  });
  it("lists months for a year, with each month's range", () => {
    expect(moodRows(points, "year", "zh-CN")).toEqual([
      { date: "2026-11-01", label: "2026年11月", mean: 4, low: 3, high: 5, count: 3 },
      { date: "2026-10-01", label: "2026年10月", mean: 2, low: 2, high: 2, count: 1 },
    ]);
  });
});
