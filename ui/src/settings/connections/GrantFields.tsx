// What a program may touch, as fields: the network, folders to read, folders to write, and
// "runs unconfined" only as an explicit, warned choice. Used by the add form and by a server's
// "Change permissions"; `prefix` keeps their test ids apart. Checking is form.ts's.

import { useTranslation } from "react-i18next";
import { Field } from "../../design";
import type { GrantForm } from "./form";

export function GrantFields({
  grant,
  onChange,
  errorAt,
  prefix,
}: {
  grant: GrantForm;
  onChange: (patch: Partial<GrantForm>) => void;
  errorAt: (field: "read" | "write") => string | undefined;
  prefix: string;
}) {
  const { t } = useTranslation();
  return (
    <fieldset className="connection-grant">
      <legend>{t("connections.form.grant")}</legend>
      <label className="check">
        <input type="checkbox" data-testid={`${prefix}-network`} checked={grant.network} disabled={grant.unconfined} onChange={(e) => onChange({ network: e.target.checked })} />
        {t("connections.form.network")}
      </label>
      <Field label={t("connections.form.read")} hint={t("connections.form.foldersHint")} error={errorAt("read")}>
        <textarea data-testid={`${prefix}-read`} rows={2} value={grant.read} disabled={grant.unconfined} onChange={(e) => onChange({ read: e.target.value })} />
      </Field>
      <Field label={t("connections.form.write")} hint={t("connections.form.foldersHint")} error={errorAt("write")}>
        <textarea data-testid={`${prefix}-write`} rows={2} value={grant.write} disabled={grant.unconfined} onChange={(e) => onChange({ write: e.target.value })} />
      </Field>
      <label className="check warn">
        <input type="checkbox" data-testid={`${prefix}-unconfined`} checked={grant.unconfined} onChange={(e) => onChange({ unconfined: e.target.checked })} />
        {t("connections.form.unconfined")}
      </label>
      {grant.unconfined && (
        <p className="connection-warning" role="alert" data-testid={`${prefix}-unconfined-warning`}>
          {t("connections.form.unconfinedWarning")}
        </p>
      )}
    </fieldset>
  );
}
