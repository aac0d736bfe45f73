// One update answer in words: a check's or an install's outcome, a refusal named by its reason
// (bad signature, truncated download, no build for this platform, not a package) with the
// reassurance that nothing changed; the server's own message only for a plain failure.

import { useTranslation } from "react-i18next";
import type { UpdateCheck, UpdateInstall } from "../wire";
import { Toast } from "../design";

export function UpdateProblem({ outcome }: { outcome: UpdateCheck | UpdateInstall }) {
  const { t } = useTranslation();
  switch (outcome.outcome) {
    case "installed":
      return <Toast tone="ok">{t("updates.installed", { version: outcome.version })}</Toast>;
    case "refused":
      return (
        <Toast tone="danger" role="alert">
          {t(`updates.refused.${outcome.reason}`)} {t("updates.nothingChanged")}
        </Toast>
      );
    case "failed":
      return (
        <Toast tone="danger" role="alert">
          {t("updates.failed", { message: outcome.message })}
        </Toast>
      );
    case "nothing_to_install":
      return <Toast tone="info">{t("updates.nothingToInstall")}</Toast>;
    case "up_to_date":
      return <Toast tone="ok">{t("updates.upToDate")}</Toast>;
    case "not_allowed":
      return <Toast tone="info">{t("updates.notAllowed")}</Toast>;
    case "not_due":
      return <Toast tone="info">{t("updates.notDue")}</Toast>;
    case "available":
      return <Toast tone="info">{t("updates.availableTitle", { version: outcome.offer.version })}</Toast>;
  }
}
