// A failed command as a person reads it: the core's message, then the app's words for the fix
// (its hint), worded at render time so a language switch re-words it.

import { useTranslation } from "react-i18next";
import type { CommandError } from "../wire";
import { hintText } from "./hint";

export function FailureText({ failure }: { failure: CommandError }) {
  const { t } = useTranslation();
  const hint = hintText(t, failure.hint);
  return (
    <>
      <span className="error-detail">{failure.error.message}</span>
      {hint && (
        <span className="error-hint" data-testid="error-hint">
          {hint}
        </span>
      )}
    </>
  );
}
