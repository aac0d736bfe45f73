// Settings' update switch and "Check now" (docs/ui.md, "Updates"): `preferences.updates` is "ask"
// when on, "off" when off ("undecided" — not chosen yet — shows off and makes no request). The
// switch saves at once. "Check now" skips the once-a-day rule, never the switch: with updates
// off the button is disabled and the shell would not ask anyway.

import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import * as client from "../client";
import { FailureText } from "../errors/Failure";
import type { CommandError, UpdateCheck, UpdateChecks } from "../wire";
import { Button, Toast } from "../design";
import { UpdateDialog } from "../updates/UpdateDialog";
import { UpdateProblem } from "../updates/UpdateProblem";

export function UpdateSettings() {
  const { t } = useTranslation();
  const [choice, setChoice] = useState<UpdateChecks | null>(null);
  const [answer, setAnswer] = useState<UpdateCheck | null>(null);
  const [dialog, setDialog] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<CommandError | null>(null);
  useEffect(() => {
    client.settings.get().then(
      (view) => setChoice(view.settings.preferences.updates),
      (e) => setError(client.toCommandError(e)),
    );
  }, []);
  const toggle = async (on: boolean) => {
    setError(null);
    setAnswer(null);
    try {
      const view = await client.settings.update([{ key: "preferences.updates", value: on ? "ask" : "off" }]);
      setChoice(view.settings.preferences.updates);
    } catch (e) {
      setError(client.toCommandError(e));
    }
  };
  const checkNow = async () => {
    setBusy(true);
    setError(null);
    setAnswer(null);
    try {
      const found = await client.updates.check(true);
      setAnswer(found);
      setDialog(found.outcome === "available");
    } catch (e) {
      setError(client.toCommandError(e));
    } finally {
      setBusy(false);
    }
  };
  return (
    <div className="update-settings">
      <label className="check">
        <input
          type="checkbox"
          data-testid="settings-updates"
          checked={choice === "ask"}
          disabled={choice === null}
          onChange={(e) => void toggle(e.target.checked)}
        />
        {t("updates.switch")}
      </label>
      <p className="muted small">{t("updates.switchHelp")}</p>
      <div className="row">
        <Button data-testid="settings-update-check" disabled={busy || choice !== "ask"} onClick={() => void checkNow()}>
          {busy ? t("updates.checking") : t("updates.checkNow")}
        </Button>
        {answer && (
          <span data-testid="settings-update-answer">
            <UpdateProblem outcome={answer} />
          </span>
        )}
      </div>
      {error && (
        <Toast tone="danger" className="small">
          <FailureText failure={error} />
        </Toast>
      )}
      {dialog && answer?.outcome === "available" && <UpdateDialog offer={answer.offer} onClose={() => setDialog(false)} />}
    </div>
  );
}
