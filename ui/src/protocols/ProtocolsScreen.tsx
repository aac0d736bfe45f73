// The Protocols screen: every protocol run, grouped by status: active (its step), paused
// (resume), completed (export the report), cancelled (the reason). Runs and titles come from
// the core (`list_protocol_runs`, `list_protocols`).

import { useCallback, useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import * as client from "../client";
import { FailureText } from "../errors/Failure";
import { FailureLine } from "../errors/FailureLine";
import { recovered, report } from "../store";
import type { CommandError, ProtocolRunStatus, ProtocolRunView, ProtocolView } from "../wire";
import { ExportButtons } from "./ExportButtons";
import { Button, Card, EmptyState, Toast } from "../design";

const GROUPS: ProtocolRunStatus[] = ["active", "paused", "completed", "cancelled"];

export function ProtocolsScreen() {
  const { t, i18n } = useTranslation();
  const [runs, setRuns] = useState<ProtocolRunView[] | null>(null);
  const [defs, setDefs] = useState<ProtocolView[]>([]);
  const [error, setError] = useState<CommandError | null>(null);
  const [resumed, setResumed] = useState<string | null>(null);
  const load = useCallback(() => {
    client.protocols.runs().then(setRuns, (e) => setError(client.toCommandError(e)));
    client.protocols.list().then(
      (defs) => {
        setDefs(defs);
        recovered("protocols");
      },
      (e) => report("protocols", e),
    );
  }, []);
  useEffect(load, [load]);
  const title = (r: ProtocolRunView) => {
    const d = defs.find((p) => p.id === r.protocol_id && p.skill === r.skill);
    if (!d) return r.protocol_id;
    return i18n.language.startsWith("zh") ? d.title : (d.title_en ?? d.title);
  };
  const resume = async (r: ProtocolRunView) => {
    setError(null);
    try {
      await client.protocols.resume(r.id);
      setResumed(r.id);
      load();
    } catch (e) {
      setError(client.toCommandError(e));
    }
  };
  const date = (iso: string | null) => (iso ? new Date(iso).toLocaleString(i18n.language) : "");

  return (
    <div className="page protocols-page">
      <h1>{t("protocols.title")}</h1>
      <p className="muted">{t("protocols.intro")}</p>
      {error && (
        <Toast as="p" tone="danger">
          <FailureText failure={error} />
        </Toast>
      )}
      <FailureLine area="protocols" />
      {runs && runs.length === 0 && <EmptyState title={t("protocols.emptyTitle")}>{t("protocols.empty")}</EmptyState>}
      {runs &&
        GROUPS.map((status) => {
          const group = runs.filter((r) => r.status === status);
          if (group.length === 0) return null;
          return (
            <section key={status} className="run-group" aria-labelledby={`runs-${status}`}>
              <h2 id={`runs-${status}`}>{t(`protocols.status.${status}`)}</h2>
              <ul className="cards">
                {group.map((r) => (
                  <Card as="li" key={r.id} className={`run run-${r.status}`} data-testid="protocol-run">
                    <div className="card-head">
                      <strong>{title(r)}</strong>
                      <span className="muted">{t("protocol.stepOf", { step: r.step, total: r.total_steps })}</span>
                    </div>
                    <div className="mini-bar" aria-hidden>
                      <div style={{ width: `${(r.status === "completed" ? 1 : (r.step - 1) / Math.max(r.total_steps, 1)) * 100}%` }} />
                    </div>
                    <p className="muted small">
                      {t("protocols.started", { at: date(r.started_at) })}
                      {r.completed_at && ` · ${t("protocols.completedAt", { at: date(r.completed_at) })}`}
                    </p>
                    {r.status === "paused" && (
                      <div className="actions start">
                        <Button type="button" variant="primary" data-testid="protocol-resume" onClick={() => void resume(r)}>
                          {t("protocols.resume")}
                        </Button>
                      </div>
                    )}
                    {r.status === "active" && resumed === r.id && <p className="ok small">{t("protocols.resumed")}</p>}
                    {r.status === "active" && resumed !== r.id && <p className="small">{t("protocols.continueInChat")}</p>}
                    {r.status === "completed" && <ExportButtons runId={r.id} />}
                    {r.status === "cancelled" && r.cancel_reason && (
                      <p className="small">{t("protocols.reason", { reason: r.cancel_reason })}</p>
                    )}
                  </Card>
                ))}
              </ul>
            </section>
          );
        })}
    </div>
  );
}
