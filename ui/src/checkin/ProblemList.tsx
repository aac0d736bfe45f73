// The problems the pure checks found (./validate.ts), each worded in the UI's language as a
// danger Toast next to the form; nothing when there are none.

import type { TFunction } from "i18next";
import { useTranslation } from "react-i18next";
import { Toast } from "../design";
import type { Problem } from "./validate";

export function ProblemList({ problems, field }: { problems: readonly Problem[]; field?: Problem["field"] }) {
  const { t } = useTranslation();
  const shown = field ? problems.filter((p) => p.field === field) : problems;
  if (shown.length === 0) return null;
  return (
    <>
      {shown.map((p, i) => (
        <Toast key={i} as="p" tone="danger" className="form-problem small" data-testid={`problem-${p.field}`}>
          {problemText(t, p)}
        </Toast>
      ))}
    </>
  );
}

type T = TFunction;

export function problemText(t: T, p: Problem): string {
  switch (p.key) {
    case "mood":
      return t("checkin.problem.mood");
    case "textEmpty":
      return t("checkin.problem.textEmpty");
    case "tooMany":
      return t("checkin.problem.tooMany", { n: p.count, max: p.max });
    case "tooLong":
      return t("checkin.problem.tooLong", { word: p.word, max: p.max });
    case "textLong":
      return t("checkin.problem.textLong", { n: p.count, max: p.max });
    case "dateFormat":
    case "dateFuture":
      return t(`checkin.problem.${p.key}`, { date: p.date });
  }
}
