// "Change permissions" of a program's connection: its grant as fields (GrantFields), what they
// would allow in plain words while edited, then Save (`set_mcp_server_grant`; the server starts
// again with it at its next use) or Cancel. A folder to fix is said at its field and nothing is
// sent; the core's refusal is said under the fields and nothing changes.

import { useState } from "react";
import { useTranslation } from "react-i18next";
import { toErrorInfo } from "../../client";
import { Button } from "../../design";
import type { McpServerView } from "../../wire";
import { mcp } from "./api";
import { grantForm, previewOf, sandboxFromGrant, type FormProblem, type GrantForm } from "./form";
import { GrantFields } from "./GrantFields";
import { Permissions } from "./Permissions";

export function GrantEditor({ server, onSaved, onClose }: { server: McpServerView; onSaved: () => void; onClose: () => void }) {
  const { t } = useTranslation();
  const [grant, setGrant] = useState<GrantForm>(() => grantForm(server.sandbox));
  const [problem, setProblem] = useState<FormProblem | null>(null);
  const [refused, setRefused] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);
  const edit = (patch: Partial<GrantForm>) => {
    setProblem(null);
    setRefused(null);
    setGrant((g) => ({ ...g, ...patch }));
  };
  const at = (field: "read" | "write") => (problem?.field === field ? t(`connections.form.${problem.key}`, problem.values) : undefined);
  const save = async () => {
    const r = sandboxFromGrant(grant);
    if ("problem" in r) return setProblem(r.problem);
    setSaving(true);
    try {
      await mcp.setGrant(server.name, r.sandbox);
      onSaved();
      onClose();
    } catch (e) {
      setRefused(toErrorInfo(e).message);
    } finally {
      setSaving(false);
    }
  };
  return (
    <div className="connection-form" data-testid="grant-editor">
      <GrantFields grant={grant} onChange={edit} errorAt={at} prefix="grant" />
      <div className="connection-preview">
        <p className="small">{t("connections.grantWillBeAllowed")}</p>
        <Permissions sandbox={previewOf(grant)} url={null} testId="grant-preview" />
        <p className="muted small">{t("connections.grantRestart")}</p>
      </div>
      {refused && (
        <p className="ds-field-error" role="alert" data-testid="grant-error">
          {refused}
        </p>
      )}
      <div className="row">
        <Button type="button" variant="primary" data-testid="grant-save" disabled={saving} onClick={() => void save()}>
          {t("connections.grantSave")}
        </Button>
        <Button type="button" data-testid="grant-cancel" onClick={onClose}>
          {t("connections.cancel")}
        </Button>
      </div>
    </div>
  );
}
