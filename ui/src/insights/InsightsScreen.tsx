// The Insights screen (loaded lazily: the chart library arrives only when it opens): a range
// switch, the weekly summary card, mood over time, the check-in calendar, feelings, protocols
// completed and goals — or, before the first check-in, an invitation to make one on Today. The
// numbers come from the core's `insights` command; ./compute.ts words and arranges them.

import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import * as client from "../client";
import { FailureText } from "../errors/Failure";
import { Button, EmptyState, Tabs, Toast } from "../design";
import type { CommandError, InsightsRange, InsightsView } from "../wire";
import { Calendar } from "./Calendar";
import { isEmpty } from "./compute";
import { Feelings, Goals, Protocols } from "./Lists";
import { MoodChart } from "./MoodChart";
import { WeekCard } from "./WeekCard";
import "./insights.css";

const RANGES: InsightsRange[] = ["week", "month", "quarter", "year"];

export default function InsightsScreen({ onCheckIn }: { onCheckIn: () => void }) {
  const { t, i18n } = useTranslation();
  const [range, setRange] = useState<InsightsRange>("month");
  const [view, setView] = useState<{ range: InsightsRange; data: InsightsView } | null>(null);
  const [error, setError] = useState<CommandError | null>(null);
  const lang = i18n.language;

  useEffect(() => {
    let live = true;
    client.insights({ range, until: null, lang }).then(
      (data) => {
        if (!live) return;
        // The benchmark (bench/insights.mjs) measures from here to the drawn screen.
        performance.mark("insights-data");
        setError(null);
        setView({ range, data });
      },
      (e) => live && setError(client.toCommandError(e)),
    );
    return () => {
      live = false;
    };
  }, [range, lang]);

  useEffect(() => {
    if (!view) return;
    performance.mark("insights-drawn");
    performance.measure(`insights-render-${view.range}`, "insights-data", "insights-drawn");
  }, [view]);

  const ready = view?.range === range;
  return (
    <div className="page insights-page" data-testid="insights" data-range={range} data-ready={ready ? "true" : "false"}>
      <h1>{t("insights.title")}</h1>
      <p className="muted">{t("insights.intro")}</p>
      <Tabs
        kind="choice"
        label={t("insights.rangeLabel")}
        value={range}
        onChange={setRange}
        data-testid="insights-range"
        items={RANGES.map((r) => ({ value: r, label: t(`insights.range.${r}`), testId: `insights-range-${r}` }))}
      />
      {error && (
        <Toast as="p" tone="danger">
          <FailureText failure={error} />
        </Toast>
      )}
      {!view && !error && <p className="muted">{t("insights.loading")}</p>}
      {view && isEmpty(view.data) && (
        <EmptyState
          data-testid="insights-empty"
          title={t("insights.empty.title")}
          action={
            <Button variant="primary" onClick={onCheckIn} data-testid="insights-checkin">
              {t("insights.empty.action")}
            </Button>
          }
        >
          {t("insights.empty.text")}
        </EmptyState>
      )}
      {view && !isEmpty(view.data) && (
        <div className="insights-body" aria-busy={!ready}>
          <WeekCard week={view.data.week} />
          <MoodChart view={view.data} range={view.range} />
          <Calendar days={view.data.days} range={view.range} />
          <div className="insights-pair">
            <Feelings feelings={view.data.feelings} />
            <Protocols protocols={view.data.protocols} />
          </div>
          <Goals goals={view.data.goals} />
        </div>
      )}
    </div>
  );
}
