// The weekly summary card: the last seven days in two sentences (what happened, and the mood
// against the week before), worded from the numbers by ./compute.ts; on request, the same
// week in the coach's words (`insights_week_words`: only the week's figures go to the model,
// which the card says before the person asks).

import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import * as client from "../client";
import { Button, Card, Toast } from "../design";
import { FailureText } from "../errors/Failure";
import type { CommandError, WeekSummary } from "../wire";
import { weekCard, type Translate } from "./compute";

type Words = { kind: "idle" } | { kind: "asking" } | { kind: "said"; text: string } | { kind: "failed"; failure: CommandError };

export function WeekCard({ week }: { week: WeekSummary }) {
  const { t, i18n } = useTranslation();
  const { headline, compare } = weekCard(week, i18n.language, t as unknown as Translate);
  const [words, setWords] = useState<Words>({ kind: "idle" });
  // Another week or language: the words said before no longer match.
  useEffect(() => setWords({ kind: "idle" }), [week.until, i18n.language]);
  const ask = () => {
    setWords({ kind: "asking" });
    client.insightsWeekWords({ until: week.until, lang: i18n.language }).then(
      (said) => setWords({ kind: "said", text: said.text }),
      (e) => setWords({ kind: "failed", failure: client.toCommandError(e) }),
    );
  };
  return (
    <Card as="section" tone="accent" className="week-card" aria-labelledby="insights-week" data-testid="insights-week">
      <h2 id="insights-week">{t("insights.week.title")}</h2>
      <p className="week-headline">{headline}</p>
      {compare && <p className="muted">{compare}</p>}
      {words.kind === "said" ? (
        <blockquote className="week-words" data-testid="insights-week-words">
          <p>{words.text}</p>
          <footer className="muted small">{t("insights.week.wordsBy")}</footer>
        </blockquote>
      ) : (
        <div className="week-ask" aria-live="polite">
          <Button size="sm" onClick={ask} disabled={words.kind === "asking"} data-testid="insights-week-ask">
            {t(words.kind === "asking" ? "insights.week.asking" : "insights.week.ask")}
          </Button>
          <span className="muted small">{t("insights.week.askNote")}</span>
          {words.kind === "failed" && (
            <Toast as="p" tone="danger" className="small">
              <FailureText failure={words.failure} />
            </Toast>
          )}
        </div>
      )}
    </Card>
  );
}
