// What became of a change saved at once (a switch, a field saved on its own): "saved", or the
// core's error with its fix. Shown under the section it is about; announced (Toast's roles).

import { useTranslation } from "react-i18next";
import { Toast } from "../design";
import type { CommandError } from "../wire";
import { FailureText } from "./Failure";

export function SaveOutcome({ saved, error, as = "span" }: { saved: boolean; error: CommandError | null; as?: "span" | "p" }) {
  const { t } = useTranslation();
  return (
    <>
      {saved && (
        <Toast as={as} tone="ok" className="small">
          {t("settings.saved")}
        </Toast>
      )}
      {error && (
        <Toast as={as} tone="danger" className="small">
          <FailureText failure={error} />
        </Toast>
      )}
    </>
  );
}
