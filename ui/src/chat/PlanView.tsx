// The plan checklist from `plan_updated` events.

import { useTranslation } from "react-i18next";
import type { Plan } from "../wire";

const MARK: Record<string, string> = { done: "☑", in_progress: "◐", skipped: "⊘", pending: "☐" };

export function PlanView({ plan }: { plan: Plan }) {
  const { t } = useTranslation();
  return (
    <section className="plan" data-testid="plan" aria-label={t("chat.plan")} tabIndex={0}>
      <h3>
        {t("chat.plan")}
        {plan.goal && <span className="plan-goal">: {plan.goal}</span>}
      </h3>
      <ul>
        {plan.steps.map((s, i) => (
          <li key={i} className={`step step-${s.status}`}>
            <span aria-hidden>{MARK[s.status] ?? "☐"}</span> {s.title}{" "}
            <span className="step-status">
              ({t(`chat.stepStatus.${s.status as "pending"}`, { defaultValue: s.status })})
            </span>
          </li>
        ))}
      </ul>
    </section>
  );
}
