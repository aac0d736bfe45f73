// The data folder locked: shown when the app could not open its database alone. Two cases:
// - `passphrase_needed`: the database is encrypted with a passphrase; the person enters it.
// - `no_database_key`: a new data folder and no system keychain to keep a key in; the person
//   chooses a passphrase (typed twice), or explicitly keeps the database unencrypted.
// The passphrase goes to the shell once, never back; the core does the key handling.

import { useState } from "react";
import { useTranslation } from "react-i18next";
import * as client from "../client";
import { FailureText } from "../errors/Failure";
import type { CommandError } from "../wire";
import { Button, Field, Toast } from "../design";

export type LockKind = "passphrase_needed" | "no_database_key";

export function isLock(e: CommandError): LockKind | null {
  const kind = e.error.kind as string;
  return kind === "passphrase_needed" || kind === "no_database_key" ? kind : null;
}

export function UnlockScreen({ kind, onOpened }: { kind: LockKind; onOpened: () => void }) {
  const { t } = useTranslation();
  const [passphrase, setPassphrase] = useState("");
  const [again, setAgain] = useState("");
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<CommandError | null>(null);
  const [confirmClear, setConfirmClear] = useState(false);
  const choosing = kind === "no_database_key";
  const mismatch = choosing && again !== "" && again !== passphrase;
  const canSubmit = passphrase !== "" && (!choosing || again === passphrase) && !busy;

  const open = async (request: { passphrase: string | null; no_encryption: boolean }) => {
    setBusy(true);
    setError(null);
    try {
      await client.unlockDatabase(request);
      setPassphrase("");
      setAgain("");
      onOpened();
    } catch (e) {
      setError(client.toCommandError(e));
    } finally {
      setBusy(false);
    }
  };

  return (
    <form
      className="unlock"
      data-testid="unlock"
      onSubmit={(e) => {
        e.preventDefault();
        if (canSubmit) void open({ passphrase, no_encryption: false });
      }}
    >
      <h1>{t(choosing ? "unlock.chooseTitle" : "unlock.title")}</h1>
      <p>{t(choosing ? "unlock.chooseIntro" : "unlock.intro")}</p>
      <Field label={t("unlock.passphrase")}>
        <input
          type="password"
          autoFocus
          autoComplete={choosing ? "new-password" : "current-password"}
          data-testid="unlock-passphrase"
          value={passphrase}
          onChange={(e) => setPassphrase(e.target.value)}
        />
      </Field>
      {choosing && (
        <Field label={t("unlock.again")}>
          <input
            type="password"
            autoComplete="new-password"
            data-testid="unlock-passphrase-again"
            value={again}
            onChange={(e) => setAgain(e.target.value)}
          />
        </Field>
      )}
      {mismatch && <p className="bad">{t("unlock.mismatch")}</p>}
      {choosing && <p className="muted">{t("unlock.remember")}</p>}
      {error && (
        <Toast as="p" tone="danger">
          {error.error.kind === "wrong_key" ? t("unlock.wrong") : <FailureText failure={error} />}
        </Toast>
      )}
      <div className="actions">
        <Button type="submit" variant="primary" data-testid="unlock-submit" disabled={!canSubmit}>
          {busy ? t("unlock.opening") : t(choosing ? "unlock.encrypt" : "unlock.unlock")}
        </Button>
      </div>
      {choosing && (
        <div className="unlock-clear">
          {confirmClear ? (
            <p>
              {t("unlock.clearWarning")}{" "}
              <Button type="button" variant="danger" data-testid="unlock-no-encryption" onClick={() => void open({ passphrase: null, no_encryption: true })}>
                {t("unlock.clearConfirm")}
              </Button>{" "}
              <Button type="button" onClick={() => setConfirmClear(false)}>
                {t("unlock.cancel")}
              </Button>
            </p>
          ) : (
            <Button type="button" variant="link" onClick={() => setConfirmClear(true)}>
              {t("unlock.clear")}
            </Button>
          )}
        </div>
      )}
    </form>
  );
}
