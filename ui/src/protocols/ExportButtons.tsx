// Export buttons of a protocol run's report: the core renders it, the shell asks where to save
// it in a native dialog and writes it. Shows where it went, or why not.

import { useState } from "react";
import { useTranslation } from "react-i18next";
import * as client from "../client";
import { FailureText } from "../errors/Failure";
import type { CommandError, ReportFormatKind } from "../wire";
import { Button, Toast } from "../design";

export const FORMATS: ReportFormatKind[] = ["md", "html", "json", "pdf"];

export function ExportButtons({ runId }: { runId: string }) {
  const { t } = useTranslation();
  const [busy, setBusy] = useState(false);
  const [result, setResult] = useState<{ saved: client.Saved } | { failure: CommandError } | null>(null);
  const run = async (format: ReportFormatKind) => {
    setBusy(true);
    setResult(null);
    try {
      setResult({ saved: await client.protocols.exportReport(runId, format) });
    } catch (e) {
      setResult({ failure: client.toCommandError(e) });
    } finally {
      setBusy(false);
    }
  };
  return (
    <div className="export">
      <div className="export-buttons" role="group" aria-label={t("protocol.export")}>
        <span className="muted">{t("protocol.export")}</span>
        {FORMATS.map((f) => (
          <Button key={f} type="button" data-testid={`export-${f}`} disabled={busy} onClick={() => void run(f)}>
            {t(`protocol.format.${f}`)}
          </Button>
        ))}
      </div>
      {result && "saved" in result && (
        <Toast as="p" tone="ok" className="export-result">
          {result.saved.path ? t("protocol.saved", { path: result.saved.path }) : t("protocol.notSaved")}
        </Toast>
      )}
      {result && "failure" in result && (
        <Toast as="p" tone="danger" className="export-result">
          <FailureText failure={result.failure} />
        </Toast>
      )}
    </div>
  );
}
