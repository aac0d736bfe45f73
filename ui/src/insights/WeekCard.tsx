// The weekly summary card: the last seven days in two sentences (what happened, and the mood
// against the week before), worded from the numbers by ./compute.ts.

import { useTranslation } from "react-i18next";
import { Card } from "../design";
import type { WeekSummary } from "../wire";
import { weekCard, type Translate } from "./compute";

export function WeekCard({ week }: { week: WeekSummary }) {
  const { t, i18n } = useTranslation();
  const { headline, compare } = weekCard(week, i18n.language, t as unknown as Translate);
  return (
    <Card as="section" tone="accent" className="week-card" aria-labelledby="insights-week" data-testid="insights-week">
      <h2 id="insights-week">{t("insights.week.title")}</h2>
      <p className="week-headline">{headline}</p>
      {compare && <p className="muted">{compare}</p>}
    </Card>
  );
}
