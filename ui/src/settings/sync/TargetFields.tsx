// The target chooser: a folder, a WebDAV folder or an S3-compatible bucket, with the fields of
// the kind chosen. The first problem (form.ts) is said at its field. The secret field is a
// password input and its value is cleared by the section once sent.

import { useTranslation } from "react-i18next";
import { Field, Tabs } from "../../design";
import { TARGET_KINDS, type TargetField, type TargetForm, type TargetProblem } from "./form";

export function TargetFields({
  form,
  problem,
  onEdit,
}: {
  form: TargetForm;
  problem: TargetProblem | null;
  onEdit: (patch: Partial<TargetForm>) => void;
}) {
  const { t } = useTranslation();
  const at = (field: TargetField) => (problem?.field === field ? t(`sync.form.problem.${problem.key}`) : undefined);
  const input = (field: TargetField, extra: { type?: string; placeholder?: string; autoComplete?: string } = {}) => (
    <input
      data-testid={`sync-${field}`}
      value={form[field]}
      aria-invalid={problem?.field === field || undefined}
      spellCheck={false}
      autoComplete={extra.autoComplete ?? "off"}
      type={extra.type ?? "text"}
      placeholder={extra.placeholder}
      onChange={(e) => onEdit({ [field]: e.target.value })}
    />
  );
  const items = TARGET_KINDS.map((kind) => ({ value: kind, label: t(`sync.kinds.${kind}`), testId: `sync-kind-${kind}` }));
  return (
    <>
      <Tabs kind="choice" label={t("sync.form.kind")} items={items} value={form.kind} onChange={(kind) => onEdit({ kind, secret: "" })} data-testid="sync-kind" />
      <p className="muted small">{t(`sync.kindHints.${form.kind}`)}</p>
      {form.kind === "folder" && (
        <Field label={t("sync.form.path")} hint={t("sync.form.pathHint")} error={at("path")}>
          {input("path", { placeholder: "~/Sync/vibelife" })}
        </Field>
      )}
      {form.kind === "webdav" && (
        <>
          <Field label={t("sync.form.url")} hint={t("sync.form.urlHint")} error={at("url")}>
            {input("url", { placeholder: "https://" })}
          </Field>
          <Field label={t("sync.form.user")} hint={t("sync.form.userHint")} error={at("user")}>
            {input("user", { autoComplete: "username" })}
          </Field>
          <Field label={t("sync.form.password")} hint={t("sync.form.secretHint")} error={at("secret")}>
            {input("secret", { type: "password", autoComplete: "new-password" })}
          </Field>
        </>
      )}
      {form.kind === "s3" && (
        <>
          <Field label={t("sync.form.endpoint")} hint={t("sync.form.endpointHint")} error={at("endpoint")}>
            {input("endpoint", { placeholder: "https://" })}
          </Field>
          <Field label={t("sync.form.bucket")} error={at("bucket")}>
            {input("bucket")}
          </Field>
          <Field label={t("sync.form.region")} error={at("region")}>
            {input("region")}
          </Field>
          <Field label={t("sync.form.accessKeyId")} error={at("accessKeyId")}>
            {input("accessKeyId")}
          </Field>
          <Field label={t("sync.form.secretKey")} hint={t("sync.form.secretHint")} error={at("secret")}>
            {input("secret", { type: "password", autoComplete: "new-password" })}
          </Field>
          <Field label={t("sync.form.prefix")} hint={t("sync.form.prefixHint")} error={at("prefix")}>
            {input("prefix", { placeholder: "vibelife/" })}
          </Field>
        </>
      )}
    </>
  );
}
