// Add connections by pasting a Claude Desktop / Cursor config (`{"mcpServers": {...}}`):
// checked here first (paste.ts: a specific problem, or the servers it names), then imported by
// the core, whose report (added, skipped with the reason) is shown. Imported servers start
// sandboxed with no network.

import { useState } from "react";
import { useTranslation } from "react-i18next";
import { Button, Field } from "../../design";
import type { McpImportReport } from "../../wire";
import { checkPasted } from "./paste";

export function PasteJson({ onImport }: { onImport: (json: string) => Promise<McpImportReport | null> }) {
  const { t } = useTranslation();
  const [text, setText] = useState("");
  const [problem, setProblem] = useState<string | null>(null);
  const [report, setReport] = useState<McpImportReport | null>(null);
  const submit = async () => {
    setReport(null);
    const r = checkPasted(text);
    if ("problem" in r) return setProblem(t(`connections.form.${r.problem.key}`, r.problem.values));
    const done = await onImport(r.json);
    if (done) {
      setReport(done);
      if (done.skipped.length === 0) setText("");
    }
  };
  return (
    <div className="connection-form" data-testid="connection-paste">
      <Field label={t("connections.paste.label")} hint={t("connections.paste.hint")} error={problem ?? undefined}>
        <textarea
          data-testid="connection-json"
          rows={8}
          spellCheck={false}
          value={text}
          placeholder={'{\n  "mcpServers": {\n    "notes": { "command": "npx", "args": ["-y", "…"] }\n  }\n}'}
          onChange={(e) => {
            setProblem(null);
            setText(e.target.value);
          }}
        />
      </Field>
      <p className="muted small">{t("connections.paste.sandboxNote")}</p>
      <Button type="button" variant="primary" data-testid="connection-import" onClick={() => void submit()}>
        {t("connections.paste.submit")}
      </Button>
      {report && (
        <div data-testid="connection-import-report" role="status">
          {report.added.length > 0 && <p>{t("connections.paste.added", { names: report.added.map((s) => s.name).join(", ") })}</p>}
          {report.skipped.map((s) => (
            <p key={s.name} className="ds-field-error">
              {t("connections.paste.skipped", { name: s.name, reason: s.reason })}
            </p>
          ))}
        </div>
      )}
    </div>
  );
}
