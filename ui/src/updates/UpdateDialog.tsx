// The update dialog (docs/ui.md, "Updates"): a newer version the update server offers, with
// what's new, and the person's choice: install now or later. Nothing is downloaded before they
// say yes. The shell downloads, verifies the signature and installs; a refusal (bad signature,
// truncated download, no build for this platform) is said in words, and nothing changed.

import { useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import * as client from "../client";
import { FailureText } from "../errors/Failure";
import type { CommandError, UpdateInstall, UpdateOffer } from "../wire";
import { Button, Dialog, Toast } from "../design";
import { UpdateProblem } from "./UpdateProblem";

export function UpdateDialog({ offer, onClose }: { offer: UpdateOffer; onClose: () => void }) {
  const { t, i18n } = useTranslation();
  const [busy, setBusy] = useState(false);
  const [outcome, setOutcome] = useState<UpdateInstall | null>(null);
  const [error, setError] = useState<CommandError | null>(null);
  const first = useRef<HTMLButtonElement>(null);
  const install = async () => {
    setBusy(true);
    setError(null);
    try {
      setOutcome(await client.updates.install());
    } catch (e) {
      setError(client.toCommandError(e));
    } finally {
      setBusy(false);
    }
  };
  const date = offer.date ? new Date(offer.date).toLocaleDateString(i18n.language) : null;
  const done = outcome?.outcome === "installed";
  return (
    <Dialog title={t("updates.availableTitle", { version: offer.version })} initialFocus={first} onClose={onClose} data-testid="update-dialog">
      <p>{t("updates.availableText", { version: offer.version, current: offer.current_version })}</p>
      {date && <p className="muted small">{t("updates.published", { date })}</p>}
      <h3>{t("updates.whatsNew")}</h3>
      <p className="update-notes" data-testid="update-notes">
        {offer.notes ?? t("updates.noNotes")}
      </p>
      {busy && (
        <Toast tone="info" className="small">
          {t("updates.installing")}
        </Toast>
      )}
      {outcome && (
        <div data-testid="update-outcome">
          <UpdateProblem outcome={outcome} />
        </div>
      )}
      {error && (
        <Toast tone="danger" className="small">
          <FailureText failure={error} />
        </Toast>
      )}
      <div className="actions">
        <Button ref={first} data-testid="update-later" disabled={busy} onClick={onClose}>
          {done ? t("updates.close") : t("updates.later")}
        </Button>
        {!done && (
          <Button variant="primary" data-testid="update-install" disabled={busy} onClick={() => void install()}>
            {t("updates.install")}
          </Button>
        )}
      </div>
    </Dialog>
  );
}
