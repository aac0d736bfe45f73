// The calendar heat map: one cell per day of the range in Monday-first week columns, shaded by
// the day's check-ins and journal entries (colours from the tokens, in insights.css). The grid is
// decoration for the eye; its summary sentence is what a screen reader reads.

import { useMemo, type PointerEvent } from "react";
import { useTranslation } from "react-i18next";
import type { DayActivity, InsightsRange } from "../wire";
import { calendar, calendarAlt, dayLabel, heatLevel, type Translate } from "./compute";

export function Calendar({ days, range }: { days: DayActivity[]; range: InsightsRange }) {
  const { t, i18n } = useTranslation();
  const tr = t as unknown as Translate;
  const lang = i18n.language;
  const { weeks, months } = useMemo(() => calendar(days, lang), [days, lang]);
  /** Larger cells for shorter ranges; a year's 53 weeks fit the page. */
  const cell = range === "year" ? "var(--space-5)" : range === "quarter" ? "var(--space-6)" : "var(--space-7)";
  const columns = `repeat(${weeks.length}, ${cell})`;
  /** A cell's tooltip, worded when the pointer first reaches it (a year has 365 cells). */
  const label = (e: PointerEvent<HTMLElement>) => {
    const el = e.target as HTMLElement;
    const d = el.dataset.date ? days.find((x) => x.date === el.dataset.date) : undefined;
    if (d && !el.title) el.title = dayLabel(d, lang, tr);
  };
  return (
    <section className="insights-block" aria-labelledby="insights-calendar" data-testid="insights-calendar">
      <h2 id="insights-calendar">{t("insights.calendar.title")}</h2>
      <div className="heat-scroll" aria-hidden="true">
        <div className="heat-months" style={{ gridTemplateColumns: columns }}>
          {months.map((m) => (
            <span key={m.column} style={{ gridColumnStart: m.column + 1 }}>
              {m.label}
            </span>
          ))}
        </div>
        <div className="heat-grid" style={{ gridTemplateColumns: columns, gridTemplateRows: `repeat(7, ${cell})` }} onPointerOver={label}>
          {weeks.flatMap((week, w) =>
            week.map((d, i) => (d ? <span key={d.date} data-date={d.date} className={`heat-cell heat-${heatLevel(d)}`} /> : <span key={`${w}-${i}`} className="heat-cell heat-none" />)),
          )}
        </div>
        <div className="heat-legend muted small">
          {t("insights.calendar.less")}
          {[0, 1, 2, 3, 4].map((l) => (
            <span key={l} className={`heat-cell heat-${l}`} />
          ))}
          {t("insights.calendar.more")}
        </div>
      </div>
      <p className="muted small" data-testid="insights-calendar-alt">
        {calendarAlt(days, range, tr)}
      </p>
    </section>
  );
}
