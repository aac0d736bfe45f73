// The Settings screen's "On this computer" section: whether closing the window keeps VibeLife
// running in the tray (`preferences.on_close`: "tray" on, "quit" off; "ask" — not chosen yet —
// shows off), whether it starts at login (the shell's autostart entry, not a setting: the
// OS holds it), and whether it looks for updates (UpdateSettings.tsx). Each change is saved at once; an error is shown and nothing changes.

import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import * as client from "../client";
import { SaveOutcome } from "../errors/SaveOutcome";
import type { CommandError, OnClose } from "../wire";
import { UpdateSettings } from "./UpdateSettings";

export function DesktopSettings() {
  const { t } = useTranslation();
  const [onClose, setOnClose] = useState<OnClose | null>(null);
  const [autostart, setAutostart] = useState<boolean | null>(null);
  const [error, setError] = useState<CommandError | null>(null);
  const [saved, setSaved] = useState(false);
  useEffect(() => {
    client.settings.get().then(
      (view) => setOnClose(view.settings.preferences.on_close),
      (e) => setError(client.toCommandError(e)),
    );
    client.desktop.autostart().then(
      (a) => setAutostart(a.enabled),
      (e) => setError(client.toCommandError(e)),
    );
  }, []);
  const run = async (change: () => Promise<void>) => {
    setError(null);
    setSaved(false);
    try {
      await change();
      setSaved(true);
    } catch (e) {
      setError(client.toCommandError(e));
    }
  };
  const keepInTray = (on: boolean) =>
    run(async () => {
      const view = await client.settings.update([{ key: "preferences.on_close", value: on ? "tray" : "quit" }]);
      setOnClose(view.settings.preferences.on_close);
    });
  const startAtLogin = (on: boolean) =>
    run(async () => setAutostart((await client.desktop.setAutostart(on)).enabled));
  return (
    <fieldset className="reminder-settings" data-testid="settings-desktop">
      <legend>{t("desktop.title")}</legend>
      <label className="check">
        <input
          type="checkbox"
          data-testid="settings-keep-in-tray"
          checked={onClose === "tray"}
          disabled={onClose === null}
          onChange={(e) => void keepInTray(e.target.checked)}
        />
        {t("desktop.keepInTray")}
      </label>
      <p className="muted small">{t("desktop.keepInTrayHelp")}</p>
      <label className="check">
        <input
          type="checkbox"
          data-testid="settings-autostart"
          checked={autostart === true}
          disabled={autostart === null}
          onChange={(e) => void startAtLogin(e.target.checked)}
        />
        {t("desktop.autostart")}
      </label>
      <UpdateSettings />
      <SaveOutcome saved={saved} error={error} />
    </fieldset>
  );
}
