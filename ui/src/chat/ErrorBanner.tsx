// An error with the action that fixes it: the kind picks the advice and the button.

import { useTranslation } from "react-i18next";
import { hintText, SETTINGS_HINTS } from "../errors/hint";
import en from "../i18n/en.json";
import type { ErrorInfo, Hint } from "../wire";
import { Button } from "../design";

type FixKind = keyof typeof en.errors.fix;
/** Kinds whose fix is in Settings; the others are fixed by retrying. */
const SETTINGS_KINDS = new Set(["network", "auth", "config", "bad_request", "timeout", "protocol", "settings", "keychain"]);

export function fixKind(kind: string): FixKind {
  return kind in en.errors.fix ? (kind as FixKind) : "other";
}

export function ErrorBanner(props: {
  error: ErrorInfo;
  /** The fix a failed command named, worded for this app (a run's own errors have none). */
  hint: Hint | null;
  onOpenSettings: () => void;
  onRetry: (() => void) | null;
  onDismiss: () => void;
}) {
  const { t } = useTranslation();
  const { error } = props;
  const hint = hintText(t, props.hint);
  const inSettings = SETTINGS_KINDS.has(error.kind) || (!!props.hint && SETTINGS_HINTS.has(props.hint.type));
  return (
    <div role="alert" className="error-banner" data-testid="error-banner">
      <div className="error-text">
        <strong>{t(`errors.fix.${fixKind(error.kind)}`)}</strong>
        <div className="error-detail">{error.message}</div>
        {hint && (
          <div className="error-hint" data-testid="error-hint">
            {hint}
          </div>
        )}
      </div>
      <div className="actions">
        {inSettings ? (
          <Button variant="primary" onClick={props.onOpenSettings}>
            {t("errors.openSettings")}
          </Button>
        ) : (
          props.onRetry && (
            <Button variant="primary" onClick={props.onRetry}>
              {t("errors.retry")}
            </Button>
          )
        )}
        <Button onClick={props.onDismiss}>{t("errors.dismiss")}</Button>
      </div>
    </div>
  );
}
