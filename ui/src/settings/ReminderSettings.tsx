// The Settings screen's reminder section (`preferences.reminders` in the core's settings):
// whether due protocol reminders become notifications, and quiet hours (start and end may
// cross midnight; a reminder due then waits until they end — the core's rule). Each change
// is saved at once and validated by the core; its error is shown and nothing is written.

import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import * as client from "../client";
import { FailureText } from "../errors/Failure";
import type { CommandError, JsonValue, SettingsView } from "../wire";
import "../reminders/reminders.css";

interface Reminders {
  notify: boolean;
  quiet: { start: string; end: string } | null;
}

type Obj = Record<string, unknown>;
const obj = (v: unknown): Obj => (v && typeof v === "object" && !Array.isArray(v) ? (v as Obj) : {});

function fromView(view: SettingsView): Reminders {
  const r = obj(obj(obj(view.settings).preferences).reminders);
  const q = obj(r.quiet_hours);
  const quiet = typeof q.start === "string" && typeof q.end === "string" ? { start: q.start, end: q.end } : null;
  return { notify: r.notify !== false, quiet };
}

/** Quiet hours offered when the person turns them on. */
const NIGHT = { start: "22:00", end: "08:00" };

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
        if (read.quiet) setDraft(read.quiet);
      },
      (e) => setError(client.toCommandError(e)),
    );
  }, []);
  const save = async (key: string, value: JsonValue) => {
    setError(null);
    setSaved(false);
    try {
      const view = await client.settings.update([{ key: `preferences.reminders.${key}`, value }]);
      setR(fromView(view));
      setSaved(true);
    } catch (e) {
      setError(client.toCommandError(e));
    }
  };
  if (!r) return error ? <FailureText failure={error} /> : null;
  const quietOn = r.quiet !== null;
  return (
    <fieldset className="reminder-settings" data-testid="settings-reminders">
      <legend>{t("reminders.settings.title")}</legend>
      <label className="check">
        <input
          type="checkbox"
          data-testid="settings-reminders-notify"
          checked={r.notify}
          onChange={(e) => void save("notify", e.target.checked)}
        />
        {t("reminders.settings.notify")}
      </label>
      <label className="check">
        <input
          type="checkbox"
          data-testid="settings-quiet-hours"
          checked={quietOn}
          disabled={!r.notify}
          onChange={(e) => void save("quiet_hours", e.target.checked ? draft : null)}
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
          <button type="button" data-testid="settings-quiet-save" onClick={() => void save("quiet_hours", draft)}>
            {t("reminders.settings.apply")}
          </button>
        </span>
      )}
      <p className="muted small">{t("reminders.settings.help")}</p>
      {saved && (
        <span role="status" className="ok small">
          {t("settings.saved")}
        </span>
      )}
      {error && (
        <span role="alert" className="bad small">
          <FailureText failure={error} />
        </span>
      )}
    </fieldset>
  );
}
