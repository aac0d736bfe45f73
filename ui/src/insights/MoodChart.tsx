// The mood chart: the daily mean as a line and every check-in as a point, drawn by uPlot on a
// canvas. The canvas needs real colours, so they (and the font, line widths and point size) are
// read from the design tokens' CSS variables when the chart is drawn and again when the theme
// changes. The canvas is hidden from screen readers; the summary sentence under it and a visually
// hidden table (its days, or months for longer ranges) say the same in words.

import { useEffect, useMemo, useRef } from "react";
import { useTranslation } from "react-i18next";
import uPlot from "uplot";
import "uplot/dist/uPlot.min.css";
import type { InsightsRange, InsightsView } from "../wire";
import { axisTicks, formatMean, moodAlt, moodRows, moodSeries, type Translate } from "./compute";

/** The design tokens a canvas needs, as the current theme defines them. */
function tokens() {
  const css = getComputedStyle(document.documentElement);
  const v = (name: string) => css.getPropertyValue(name).trim();
  const n = (name: string) => parseFloat(v(name)) || 1;
  return {
    line: v("--color-accent"),
    point: v("--color-accent"),
    pointFill: v("--color-surface"),
    text: v("--color-text-muted"),
    grid: v("--color-border"),
    font: `${v("--text-xs")} ${v("--font-sans")}`,
    lineWidth: n("--line-focus"),
    thin: n("--line-thin"),
    pointSize: n("--space-3"),
    axisGap: n("--space-2"),
  };
}

export function MoodChart({ view, range }: { view: InsightsView; range: InsightsRange }) {
  const { t, i18n } = useTranslation();
  const tr = t as unknown as Translate;
  const lang = i18n.language;
  const box = useRef<HTMLDivElement>(null);
  const series = useMemo(() => moodSeries(view), [view]);
  const ticks = useMemo(() => axisTicks(view.since, view.until, lang), [view.since, view.until, lang]);
  const rows = useMemo(() => moodRows(view.mood_points, range, lang), [view.mood_points, range, lang]);
  const byMonth = range === "quarter" || range === "year";

  useEffect(() => {
    const el = box.current;
    if (!el) return;
    let plot: uPlot | null = null;
    const draw = () => {
      plot?.destroy();
      const k = tokens();
      const axis = { stroke: k.text, font: k.font, gap: k.axisGap, ticks: { stroke: k.grid, width: k.thin }, grid: { stroke: k.grid, width: k.thin } };
      const data = [series.x, series.mean, ...series.points] as uPlot.AlignedData;
      plot = new uPlot(
        {
          width: el.clientWidth,
          height: el.clientHeight,
          legend: { show: false },
          cursor: { show: false },
          scales: { x: { time: false, range: [-0.5, series.x.length - 0.5] }, y: { range: [0.5, 5.5] } },
          axes: [
            { ...axis, grid: { show: false }, splits: () => ticks.map((tk) => tk.index), values: () => ticks.map((tk) => tk.label) },
            { ...axis, splits: () => [1, 2, 3, 4, 5], values: (_u, splits) => splits.map(String) },
          ],
          series: [
            {},
            { stroke: k.line, width: k.lineWidth, spanGaps: true, points: { show: false } },
            ...series.points.map(() => ({
              stroke: k.point,
              paths: () => null,
              points: { show: true, size: k.pointSize, width: k.lineWidth, stroke: k.point, fill: k.pointFill },
            })),
          ],
        },
        data,
        el,
      );
      el.dataset.drawn = String(series.x.length);
    };
    draw();
    // The theme switch changes the tokens: draw again with the new colours.
    const themed = new MutationObserver(draw);
    themed.observe(document.documentElement, { attributes: true, attributeFilter: ["data-theme"] });
    const sized = new ResizeObserver(() => plot?.setSize({ width: el.clientWidth, height: el.clientHeight }));
    sized.observe(el);
    return () => {
      themed.disconnect();
      sized.disconnect();
      plot?.destroy();
    };
  }, [series, ticks]);

  return (
    <figure className="insights-figure" data-testid="insights-mood-chart">
      <figcaption>
        <h2>{t("insights.mood.title")}</h2>
      </figcaption>
      <div className="mood-legend muted small" aria-hidden="true">
        <span className="legend-line" /> {t("insights.mood.legendLine")}
        <span className="legend-point" /> {t("insights.mood.legendPoints")}
      </div>
      <div ref={box} className="mood-canvas" aria-hidden="true" />
      <p className="muted small" data-testid="insights-mood-alt">
        {moodAlt(view, range, lang, tr)}
      </p>
      <table className="visually-hidden">
        <caption>{t("insights.mood.table")}</caption>
        <thead>
          <tr>
            <th scope="col">{t(byMonth ? "insights.mood.month" : "insights.mood.date")}</th>
            <th scope="col">{t("insights.mood.mean")}</th>
            <th scope="col">{t("insights.mood.range")}</th>
            <th scope="col">{t("insights.mood.checkins")}</th>
          </tr>
        </thead>
        <tbody>
          {rows.map((r) => (
            <tr key={r.date}>
              <td>{r.label}</td>
              <td>{formatMean(r.mean)}</td>
              <td>{r.low === r.high ? r.low : `${r.low}–${r.high}`}</td>
              <td>{r.count}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </figure>
  );
}
