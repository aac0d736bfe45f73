// Preferences in "Me": the coach's voice (the profile's `preferences.voice_mode`), the app's
// language (the settings' `preferences.language`) and the person's own reminder times (the
// profile's `preferences.reminder_times`: a protocol step's first reminder at the first time, and
// so on). Each is written through the core, which checks it; a refused value is shown and
// nothing changes.

import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import * as client from "../client";
import { SaveOutcome } from "../errors/SaveOutcome";
import { setLanguage } from "../i18n";
import { languageSetting } from "../settings/form";
import type { CommandError } from "../wire";
import "./preferences.css";
import { Button, Card, Field } from "../design";

type Obj = Record<string, unknown>;
const obj = (v: unknown): Obj => (v && typeof v === "object" && !Array.isArray(v) ? (v as Obj) : {});

const VOICES = ["warm", "direct", "playful"] as const;

/** "09:30, 12:00 18:00" → ["09:30", "12:00", "18:00"]; the core checks each. */
export const parseTimes = (text: string) => text.split(/[\s,，、;；]+/).filter(Boolean);

export function PreferencesSection() {
  const { t } = useTranslation();
  const [voice, setVoice] = useState("");
  const [language, setLang] = useState("");
  const [times, setTimes] = useState("");
  const [error, setError] = useState<CommandError | null>(null);
  const [saved, setSaved] = useState(false);
  useEffect(() => {
    client.profile.get().then((p) => {
      const prefs = obj(obj(p).preferences);
      setVoice(typeof prefs.voice_mode === "string" ? prefs.voice_mode : "");
      setTimes(Array.isArray(prefs.reminder_times) ? prefs.reminder_times.join(", ") : "");
    }, (e) => setError(client.toCommandError(e)));
    client.settings.get().then((v) => {
      const lang = v.settings.preferences.language;
      setLang(lang === "system" ? "" : lang);
    }, (e) => setError(client.toCommandError(e)));
  }, []);
  const run = async (write: () => Promise<unknown>) => {
    setError(null);
    setSaved(false);
    try {
      await write();
      setSaved(true);
    } catch (e) {
      setError(client.toCommandError(e));
    }
  };
  const saveTimes = () => {
    const list = parseTimes(times);
    void run(() => client.profile.set("preferences.reminder_times", list.length ? list : null));
  };
  return (
    <Card as="section" className="prefs" aria-labelledby="me-prefs" data-testid="me-preferences">
      <h2 id="me-prefs">{t("me.prefs.title")}</h2>
      <Field label={t("me.prefs.voice")}>
        <select
          data-testid="pref-voice"
          value={voice}
          onChange={(e) => {
            const v = e.target.value;
            setVoice(v);
            void run(() => client.profile.set("preferences.voice_mode", v || null));
          }}
        >
          <option value="">{t("me.prefs.voiceDefault")}</option>
          {VOICES.map((v) => (
            <option key={v} value={v}>
              {t(`me.prefs.voices.${v}`)}
            </option>
          ))}
        </select>
      </Field>
      <Field label={t("settings.language")}>
        <select
          data-testid="pref-language"
          value={language}
          onChange={(e) => {
            const lang = e.target.value;
            setLang(lang);
            void run(async () => {
              await client.settings.update([{ key: "preferences.language", value: languageSetting(lang) }]);
              setLanguage(lang);
            });
          }}
        >
          <option value="">{t("settings.languages.system")}</option>
          <option value="zh-CN">{t("settings.languages.zh-CN")}</option>
          <option value="en">{t("settings.languages.en")}</option>
        </select>
      </Field>
      <Field label={t("me.prefs.times")}>
        <span className="row">
          <input
            data-testid="pref-times"
            value={times}
            placeholder="09:30, 12:00, 18:00"
            onChange={(e) => setTimes(e.target.value)}
            onKeyDown={(e) => {
              if (e.key === "Enter") {
                e.preventDefault();
                saveTimes();
              }
            }}
          />
          <Button type="button" data-testid="pref-times-save" onClick={saveTimes}>
            {t("me.prefs.saveTimes")}
          </Button>
        </span>
      </Field>
      <p className="muted small">{t("me.prefs.timesHelp")}</p>
      <SaveOutcome saved={saved} error={error} as="p" />
    </Card>
  );
}
