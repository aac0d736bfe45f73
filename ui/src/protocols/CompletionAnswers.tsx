// The completion card's body: what the person answered, step by step (`get_protocol_run`'s
// `answers`: the step's title, each field's label for the person — in English when the UI is
// and the protocol gives one — and the text) — their own words, not the model's transitions. Read once per run; a failed read says so in the card (the report still
// has everything).

import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import * as client from "../client";
import { Toast } from "../design";
import type { StepAnswers } from "../wire";

export function CompletionAnswers({ runId }: { runId: string }) {
  const { t, i18n } = useTranslation();
  const english = i18n.language.startsWith("en");
  const [answers, setAnswers] = useState<StepAnswers[] | null>(null);
  const [failed, setFailed] = useState(false);
  useEffect(() => {
    let live = true;
    client.protocols.get(runId).then(
      (run) => live && setAnswers(run.answers),
      () => live && setFailed(true),
    );
    return () => {
      live = false;
    };
  }, [runId]);
  if (failed)
    return (
      <Toast as="p" tone="info" className="small">
        {t("protocol.answersFailed")}
      </Toast>
    );
  if (!answers || answers.length === 0) return null;
  return (
    <section className="protocol-answers" aria-labelledby={`answers-${runId}`} data-testid="protocol-answers">
      <h4 id={`answers-${runId}`}>{t("protocol.answers")}</h4>
      <ol className="answer-steps">
        {answers.map((s) => (
          <li key={s.step} className="answer-step" data-testid="protocol-answer">
            <span className="answer-step-title">{t("protocol.stepN", { n: s.step })} · {(english && s.title_en) || s.title}</span>
            <dl className="answer-fields">
              {s.fields.map((f) => (
                <div key={f.key}>
                  <dt className="muted small">{(english && f.label_en) || f.label}</dt>
                  <dd>{f.text}</dd>
                </div>
              ))}
            </dl>
          </li>
        ))}
      </ol>
    </section>
  );
}
