// One skill of the index: name, description, root, what it shadows, valid or not, each problem
// as `path:line:col: severity: message` in the UI's language (`findingText`); "Details" lists its parts and resources (`show_skill`).

import { useState } from "react";
import { useTranslation } from "react-i18next";
import * as client from "../client";
import { FailureText } from "../errors/Failure";
import type { CommandError, SkillDetail, SkillSummary } from "../wire";
import { findingParts } from "./findingText";
import { Button, Card, Toast } from "../design";

export function SkillRow({ skill: s }: { skill: SkillSummary }) {
  const { t } = useTranslation();
  const [detail, setDetail] = useState<SkillDetail | null>(null);
  const [failure, setFailure] = useState<CommandError | null>(null);
  const [open, setOpen] = useState(false);
  const toggle = () => {
    setOpen(!open);
    if (open) return;
    setFailure(null);
    client.skills.show(s.name).then(setDetail, (e) => {
      setDetail(null);
      setFailure(client.toCommandError(e));
    });
  };
  return (
    <Card as="li" tone={s.valid ? "plain" : "danger"} className={`skill ${s.valid ? "" : "skill-invalid"}`} data-testid="skill-row" data-valid={s.valid}>
      <div className="card-head">
        <span>
          <strong>{s.name}</strong> <span className="badge">{t(`skills.root.${s.root}`)}</span>
        </span>
        <span className={s.valid ? "ok small" : "bad small"}>{s.valid ? `✓ ${t("skills.valid")}` : `✗ ${t("skills.invalid")}`}</span>
      </div>
      {s.description && <p className="small">{s.description}</p>}
      {s.shadows.map((sh) => (
        <p key={sh.dir} className="muted small">
          {t("skills.shadows", { root: t(`skills.root.${sh.root}`), dir: sh.dir })}
        </p>
      ))}
      {s.problems.length > 0 && (
        <ul className="problems">
          {/* Worded in the UI's language from each finding's kind; older answers: the core's text. */}
          {(s.findings.length === s.problems.length
            ? s.findings.map((f) => findingParts(f, t))
            : s.problems.map((text) => ({ text, detail: null }))
          ).map((p, i) => (
            <li key={i} data-testid="skill-problem">
              <code>{p.text}</code>
              {p.detail && (
                <span className="finding-detail small">
                  {t("skills.finding.parserSaid")} <code lang="en">{p.detail}</code>
                </span>
              )}
            </li>
          ))}
        </ul>
      )}
      <Button type="button" variant="link" className="small" aria-expanded={open} onClick={toggle}>
        {open ? t("skills.hideDetails") : t("skills.details")}
      </Button>
      {open && failure && (
        <Toast as="p" tone="danger" className="small">
          <FailureText failure={failure} />
        </Toast>
      )}
      {open && detail && (
        <div className="skill-detail small">
          <p className="muted">
            <code>{detail.dir}</code>
          </p>
          <dl className="facts">
            {(["rules", "scenarios", "cases", "protocols"] as const).map((k) => (
              <Part key={k} label={t(`skills.part.${k}`)} items={detail.parts[k]} />
            ))}
            <dt>{t("skills.part.tools")}</dt>
            <dd>{detail.parts.tools ? t("skills.yes") : t("skills.no")}</dd>
          </dl>
          {detail.resources.length > 0 && (
            <>
              <h4>{t("skills.resources")}</h4>
              <ul className="resources">
                {detail.resources.map((r) => (
                  <li key={r.path}>
                    <code>{r.path}</code> <span className="muted">{t(`skills.kind.${r.kind}`)} · {t("skills.bytes", { n: r.bytes })}</span>
                  </li>
                ))}
              </ul>
            </>
          )}
        </div>
      )}
    </Card>
  );
}

function Part({ label, items }: { label: string; items: string[] }) {
  const { t } = useTranslation();
  return (
    <>
      <dt>{label}</dt>
      <dd>{items.length ? items.join(", ") : t("skills.none")}</dd>
    </>
  );
}
