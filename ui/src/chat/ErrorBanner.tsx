// An error with the action that fixes it: the kind picks the advice and the button.

import { useTranslation } from "react-i18next";
import type { ErrorInfo } from "../wire";
import en from "../i18n/en.json";

type FixKind = keyof typeof en.errors.fix;
/** Kinds whose fix is in Settings; the others are fixed by retrying. */
const SETTINGS_KINDS = new Set(["network", "auth", "config", "bad_request", "timeout", "protocol"]);

export function fixKind(kind: string): FixKind {
  return kind in en.errors.fix ? (kind as FixKind) : "other";
}

export function ErrorBanner(props: {
  error: ErrorInfo;
  onOpenSettings: () => void;
  onRetry: (() => void) | null;
  onDismiss: () => void;
}) {
  const { t } = useTranslation();
  const { error } = props;
  const inSettings = SETTINGS_KINDS.has(error.kind);
  return (
    <div role="alert" className="error-banner" data-testid="error-banner">
      <div className="error-text">
        <strong>{t(`errors.fix.${fixKind(error.kind)}`)}</strong>
        <div className="error-detail">{error.message}</div>
      </div>
      <div className="actions">
        {inSettings ? (
          <button className="primary" onClick={props.onOpenSettings}>
            {t("errors.openSettings")}
          </button>
        ) : (
          props.onRetry && (
            <button className="primary" onClick={props.onRetry}>
              {t("errors.retry")}
            </button>
          )
        )}
        <button onClick={props.onDismiss}>{t("errors.dismiss")}</button>
      </div>
    </div>
  );
}
