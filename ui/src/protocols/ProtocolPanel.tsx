// A conversation's coaching protocol above the thread: the invitation card with its actions
// as buttons (Start is a turn with the structured choice, so the coach asks the first
// question at once; Later is `later_protocol`; never typed text), the lapsed card when the
// next message was not an agreement (nothing started; the coach may offer it again),
// the progress bar with the step names while it runs (paused — by the safety screen or by
// another protocol starting — with a Resume button here, so nobody has to hunt for it on the
// Protocols screen), and the completion card with the
// person's own answers (not the model's summary) and the report's export buttons. Drawn from the chat state's `ProtocolView` only.

import { useTranslation } from "react-i18next";
import type { ProtocolView } from "../chat/state";
import { CompletionAnswers } from "./CompletionAnswers";
import { ExportButtons } from "./ExportButtons";
import { Button, Card, Toast } from "../design";

interface Props {
  protocol: ProtocolView;
  busy: boolean;
  onStart: () => void;
  onLater: () => void;
  onResume: () => void;
}

/** The invitation's words in the UI's language: English where the protocol has them. */
function invitationWords(inv: NonNullable<ProtocolView["invitation"]>, english: boolean) {
  return {
    title: (english && inv.titleEn) || inv.title,
    description: (english && inv.descriptionEn) || inv.description,
    time: (english && inv.estimatedTimeEn) || inv.estimatedTime,
  };
}

export function ProtocolPanel({ protocol: p, busy, onStart, onLater, onResume }: Props) {
  const { t, i18n } = useTranslation();
  const english = i18n.language.startsWith("en");
  if (p.status === "invited" && p.invitation) {
    if (p.declined) return <p className="protocol-note muted">{t("protocol.declined")}</p>;
    const inv = p.invitation;
    const words = invitationWords(inv, english);
    return (
      <Card as="section" tone="accent" className="protocol-card" data-testid="protocol-invitation" aria-label={t("protocol.invitation")}>
        <span className="protocol-kicker">{t("protocol.invitation")}</span>
        <h3>{words.title}</h3>
        <p className="protocol-desc">{words.description}</p>
        {words.time && <p className="muted">{t("protocol.estimated", { time: words.time })}</p>}
        <div className="actions protocol-actions">
          {inv.actions.map((a) => (
            <Button
              key={a.value}
              type="button"
              className={a.value === "start" ? "primary" : undefined}
              data-testid={`protocol-${a.value}`}
              title={a.label}
              disabled={busy}
              onClick={a.value === "start" ? onStart : onLater}
            >
              {t(`protocol.${a.value}`)}
            </Button>
          ))}
        </div>
      </Card>
    );
  }
  if (p.status === "lapsed") {
    return (
      <Card as="section" className="protocol-card protocol-lapsed" data-testid="protocol-invitation-lapsed" aria-label={t("protocol.invitation")}>
        <span className="protocol-kicker muted">{t("protocol.lapsedKicker")}</span>
        {p.invitation && <h3>{invitationWords(p.invitation, english).title}</h3>}
        <Toast as="p" tone="info" className="protocol-desc muted">
          {t("protocol.lapsed")}
        </Toast>
      </Card>
    );
  }
  if (p.status === "active" || p.status === "paused") return <ProgressView p={p} busy={busy} onResume={onResume} />;
  if (p.status === "completed") {
    return (
      <Card as="section" tone="ok" className="protocol-card protocol-done" data-testid="protocol-complete" aria-label={t("protocol.complete")}>
        <span className="protocol-kicker ok">✓ {t("protocol.complete")}</span>
        {p.runId ? <CompletionAnswers runId={p.runId} /> : p.summary && <p className="protocol-desc">{p.summary}</p>}
        {p.runId && <ExportButtons runId={p.runId} />}
      </Card>
    );
  }
  return (
    <Toast as="p" tone="info" className="protocol-note muted">
      {t("protocol.cancelled")}
      {p.summary ? `: ${p.summary}` : ""}
    </Toast>
  );
}

function ProgressView({ p, busy, onResume }: { p: ProtocolView; busy: boolean; onResume: () => void }) {
  const { t, i18n } = useTranslation();
  const total = Math.max(p.totalSteps, p.step, 1);
  // English step names for an English UI when the protocol has them; else its own (Chinese).
  const names = i18n.language.startsWith("en") && p.stepNamesEn.length > 0 ? p.stepNamesEn : p.stepNames;
  const steps = Array.from({ length: total }, (_, i) => names[i] || t("protocol.stepN", { n: i + 1 }));
  const phase = p.phase ? t(`protocol.phase.${p.phase as "morning"}`, { defaultValue: p.phase }) : null;
  const count = t("protocol.stepOf", { step: p.step, total });
  return (
    <section className="protocol-progress-pane" aria-label={t("protocol.progress")} tabIndex={0}>
      <div className="protocol-head">
        <strong>{steps[p.step - 1] ?? count}</strong>
        <span className="muted">
          {count}
          {phase && ` · ${phase}`}
          {p.status === "paused" && ` · ${t("protocol.paused")}`}
        </span>
      </div>
      <div
        className="protocol-bar"
        data-testid="protocol-progress"
        role="progressbar"
        aria-label={t("protocol.progress")}
        aria-valuemin={0}
        aria-valuenow={p.step}
        aria-valuemax={total}
        aria-valuetext={count}
      >
        <div className="protocol-bar-fill" style={{ width: `${(Math.max(p.step - 1, 0) / total) * 100 + 100 / total / 2}%` }} />
      </div>
      <ol className="protocol-steps">
        {steps.map((name, i) => {
          const n = i + 1;
          const state = n < p.step ? "done" : n === p.step ? "current" : "todo";
          return (
            <li key={n} className={`protocol-step step-${state}`} aria-current={state === "current" ? "step" : undefined}>
              <span className="dot" aria-hidden>{state === "done" ? "✓" : n}</span>
              <span className="name">{name}</span>
            </li>
          );
        })}
      </ol>
      {p.status === "paused" && (
        <div className="protocol-paused" data-testid="protocol-paused">
          <p className="muted small">{t("protocol.pausedNote")}</p>
          <Button type="button" data-testid="protocol-resume-here" disabled={busy || !p.runId} onClick={onResume}>
            {t("protocol.resume")}
          </Button>
        </div>
      )}
    </section>
  );
}
