// The Insights screen's lists: feelings by frequency (bars), the protocols completed in the range
// and the life coach's goals with their milestones. Each row says its numbers in text, so the
// bars and pips are decoration (hidden from screen readers).

import { useTranslation } from "react-i18next";
import { Card } from "../design";
import type { CompletedProtocol, FeelingCount, GoalProgress } from "../wire";
import { feelingShares, formatDay } from "./compute";

/** The most feelings the chart lists. */
const FEELINGS_SHOWN = 10;
/** The most milestone pips a goal shows. */
const PIPS = 12;

export function Feelings({ feelings }: { feelings: FeelingCount[] }) {
  const { t } = useTranslation();
  return (
    <section className="insights-block" aria-labelledby="insights-feelings" data-testid="insights-feelings">
      <h2 id="insights-feelings">{t("insights.feelings.title")}</h2>
      {feelings.length === 0 ? (
        <p className="muted">{t("insights.feelings.none")}</p>
      ) : (
        <ol className="feeling-bars">
          {feelingShares(feelings.slice(0, FEELINGS_SHOWN)).map((f) => (
            <li key={f.feeling}>
              <span className="feeling-name">{f.feeling}</span>
              <span className="feeling-bar" aria-hidden="true">
                <span style={{ width: `${f.percent}%` }} />
              </span>
              <span className="feeling-count">{t("insights.feelings.count", { count: f.count })}</span>
            </li>
          ))}
        </ol>
      )}
    </section>
  );
}

export function Protocols({ protocols }: { protocols: CompletedProtocol[] }) {
  const { t, i18n } = useTranslation();
  return (
    <section className="insights-block" aria-labelledby="insights-protocols" data-testid="insights-protocols">
      <h2 id="insights-protocols">{t("insights.protocols.title")}</h2>
      {protocols.length === 0 ? (
        <p className="muted">{t("insights.protocols.none")}</p>
      ) : (
        <ul className="insights-rows">
          {[...protocols].reverse().map((p) => (
            <li key={p.run_id}>
              <strong>{p.title}</strong>
              <span className="muted small">
                {formatDay(p.completed_at.slice(0, 10), i18n.language)} · {t("insights.protocols.steps", { steps: p.steps })}
              </span>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

export function Goals({ goals }: { goals: GoalProgress[] }) {
  const { t, i18n } = useTranslation();
  const day = (d: string) => formatDay(d, i18n.language);
  /** A deadline in another year than this one says its year. */
  const deadline = (d: string) => formatDay(d, i18n.language, d.slice(0, 4) === String(new Date().getFullYear()) ? "day" : "year");
  const status = (s: string) => (["active", "paused", "done", "dropped"].includes(s) ? t(`insights.goals.status.${s as "active"}`) : s);
  return (
    <section className="insights-block" aria-labelledby="insights-goals" data-testid="insights-goals">
      <h2 id="insights-goals">{t("insights.goals.title")}</h2>
      {goals.length === 0 ? (
        <p className="muted">{t("insights.goals.none")}</p>
      ) : (
        <ul className="cards goal-cards">
          {goals.map((g) => (
            <Card as="li" key={g.id} tone={g.status === "done" ? "ok" : g.status === "active" ? "accent" : "plain"} className="goal">
              <div className="card-head">
                <strong>{g.title}</strong>
                <span className={`goal-status goal-${g.status}`}>{status(g.status)}</span>
              </div>
              <div className="goal-pips" aria-hidden="true">
                {Array.from({ length: Math.min(g.milestones, PIPS) }, (_, i) => (
                  <span key={i} />
                ))}
              </div>
              <p className="muted small">
                {[
                  g.milestones === 1 ? t("insights.goals.milestonesOne") : t("insights.goals.milestones", { count: g.milestones }),
                  g.last_milestone && t("insights.goals.last", { date: day(g.last_milestone) }),
                  g.deadline && t("insights.goals.deadline", { date: deadline(g.deadline) }),
                ]
                  .filter(Boolean)
                  .join(" · ")}
              </p>
            </Card>
          ))}
        </ul>
      )}
    </section>
  );
}
