// Add one connection by form: a program (command, arguments, environment) or a web address
// (URL, headers), and for a program what it may touch — shown in plain words before adding,
// "runs unconfined" only as an explicit, warned choice. The first problem (form.ts) is said at
// its field; the core's refusal is said under the form.

import { useState } from "react";
import { useTranslation } from "react-i18next";
import { Button, Field } from "../../design";
import type { AddMcpServerRequest } from "../../wire";
import { emptyForm, previewOf, requestFromForm, type FormProblem, type ServerForm } from "./form";
import { GrantFields } from "./GrantFields";
import { PairRows } from "./PairRows";
import { Permissions } from "./Permissions";

export function AddForm({ onAdd }: { onAdd: (request: AddMcpServerRequest) => Promise<boolean> }) {
  const { t } = useTranslation();
  const [form, setForm] = useState<ServerForm>(emptyForm);
  const [problem, setProblem] = useState<FormProblem | null>(null);
  const edit = (patch: Partial<ServerForm>) => {
    setProblem(null);
    setForm((f) => ({ ...f, ...patch }));
  };
  const at = (field: FormProblem["field"]) => (problem?.field === field ? t(`connections.form.${problem.key}`, problem.values) : undefined);
  const submit = async () => {
    const r = requestFromForm(form);
    if ("problem" in r) return setProblem(r.problem);
    if (await onAdd(r.request)) setForm(emptyForm());
  };
  const preview = previewOf(form);
  const stdio = form.transport === "stdio";
  return (
    <div className="connection-form" data-testid="connection-form">
      <Field label={t("connections.form.name")} hint={t("connections.form.nameHint")} error={at("name")}>
        <input data-testid="connection-name" value={form.name} onChange={(e) => edit({ name: e.target.value })} />
      </Field>
      <Field label={t("connections.form.transport")}>
        <select data-testid="connection-transport" value={form.transport} onChange={(e) => edit({ transport: e.target.value as ServerForm["transport"] })}>
          <option value="stdio">{t("connections.form.stdio")}</option>
          <option value="http">{t("connections.form.http")}</option>
        </select>
      </Field>
      {stdio ? (
        <>
          <Field label={t("connections.form.command")} hint={t("connections.form.commandHint")} error={at("command")}>
            <input data-testid="connection-command" value={form.command} onChange={(e) => edit({ command: e.target.value })} />
          </Field>
          <Field label={t("connections.form.args")} hint={t("connections.form.argsHint")}>
            <textarea data-testid="connection-args" rows={3} value={form.args} onChange={(e) => edit({ args: e.target.value })} />
          </Field>
          <PairRows kind="env" rows={form.env} onChange={(env) => edit({ env })} />
          {at("env") && <p className="ds-field-error" role="alert">{at("env")}</p>}
          <GrantFields grant={form} onChange={edit} errorAt={at} prefix="connection" />
        </>
      ) : (
        <>
          <Field label={t("connections.form.url")} error={at("url")}>
            <input data-testid="connection-url" value={form.url} placeholder="https://" onChange={(e) => edit({ url: e.target.value })} />
          </Field>
          <PairRows kind="headers" rows={form.headers} onChange={(headers) => edit({ headers })} />
          {at("headers") && <p className="ds-field-error" role="alert">{at("headers")}</p>}
        </>
      )}
      <div className="connection-preview">
        <p className="small">{t("connections.form.willBeAllowed")}</p>
        <Permissions sandbox={preview} url={stdio ? null : form.url.trim() || "…"} testId="connection-preview" />
      </div>
      <Button type="button" variant="primary" data-testid="connection-add-submit" onClick={() => void submit()}>
        {t("connections.form.submit")}
      </Button>
    </div>
  );
}
