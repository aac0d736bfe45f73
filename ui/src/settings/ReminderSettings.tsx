// The Settings screen's reminder section (`preferences.reminders` in the core's settings):
// whether due protocol reminders become notifications, and quiet hours (start and end may
// cross midnight; a reminder due then waits until they end — the core's rule). Each change
// is saved at once and validated by the core; its error is shown and nothing is written.

import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import * as client from "../client";
import { FailureText } from "../errors/Failure";
import { SaveOutcome } from "../errors/SaveOutcome";
import type { CommandError, QuietHours, ReminderSettings as Reminders, SettingChange, SettingsView } from "../wire";
import "../reminders/reminders.css";
import { Button } from "../design";

const fromView = (view: SettingsView): Reminders => view.settings.preferences.reminders;

/** Quiet hours offered when the person turns them on. */
const NIGHT: QuietHours = { start: "22:00", end: "08:00" };

export function ReminderSettings() {
  const { t } = useTranslation();
  const [r, setR] = useState<Reminders | null>(null);
  const [draft, setDraft] = useState(NIGHT);
  const [error, setError] = useState<CommandError | null>(null);
  const [saved, setSaved] = useState(false);
  useEffect(() => {
    client.settings.get().then(
      (view) => {
        const read = fromView(view);
        setR(read);
        if (read.quiet_hours) setDraft(read.quiet_hours);
      },
      (e) => setError(client.toCommandError(e)),
    );
  }, []);
  const save = async (change: SettingChange) => {
    setError(null);
    setSaved(false);
    try {
      const view = await client.settings.update([change]);
      setR(fromView(view));
      setSaved(true);
    } catch (e) {
      setError(client.toCommandError(e));
    }
  };
  if (!r) return error ? <FailureText failure={error} /> : null;
  const quietOn = r.quiet_hours !== null;
  return (
    <fieldset className="reminder-settings" data-testid="settings-reminders">
      <legend>{t("reminders.settings.title")}</legend>
      <label className="check">
        <input
          type="checkbox"
          data-testid="settings-reminders-notify"
          checked={r.notify}
          onChange={(e) => void save({ key: "preferences.reminders.notify", value: e.target.checked })}
        />
        {t("reminders.settings.notify")}
      </label>
      <label className="check">
        <input
          type="checkbox"
          data-testid="settings-quiet-hours"
          checked={quietOn}
          disabled={!r.notify}
          onChange={(e) => void save({ key: "preferences.reminders.quiet_hours", value: e.target.checked ? draft : null })}
        />
        {t("reminders.settings.quiet")}
      </label>
      {quietOn && (
        <span className="row quiet-hours">
          <label>
            {t("reminders.settings.from")}
            <input
              type="time"
              data-testid="settings-quiet-start"
              value={draft.start}
              onChange={(e) => setDraft({ ...draft, start: e.target.value })}
            />
          </label>
          <label>
            {t("reminders.settings.until")}
            <input
              type="time"
              data-testid="settings-quiet-end"
              value={draft.end}
              onChange={(e) => setDraft({ ...draft, end: e.target.value })}
            />
          </label>
          <Button type="button" data-testid="settings-quiet-save" onClick={() => void save({ key: "preferences.reminders.quiet_hours", value: draft })}>
            {t("reminders.settings.apply")}
          </Button>
        </span>
      )}
      <p className="muted small">{t("reminders.settings.help")}</p>
      <SaveOutcome saved={saved} error={error} />
    </fieldset>
  );
}
