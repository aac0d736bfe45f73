// Settings: provider preset, base URL, model (picker fed by the endpoint's model list), API key
// (to the keychain; the webview only learns whether one is stored), tool mode, language,
// appearance (ThemeSwitch.tsx, saved at once), reminders and the tray and start at login (their own sections, saved at once), the data folder, and a connection test. Saving
// sends the form's keys to the core, which validates them together and writes nothing when one
// is wrong. The models that run on this computer are their own section (ModelsSection.tsx).

import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import * as client from "../client";
import { FailureText } from "../errors/Failure";
import { FailureLine } from "../errors/FailureLine";
import { recovered, report } from "../store";
import { setLanguage } from "../i18n";
import type { CommandError, Encryption, PresetView } from "../wire";
import { changesFromForm, formFromView } from "./form";
import { ReminderSettings } from "./ReminderSettings";
import { DesktopSettings } from "./DesktopSettings";
import { ModelsSection } from "./ModelsSection";
import { ThemeSwitch } from "./ThemeSwitch";
import { Button, Field, Toast } from "../design";
import { ConnectionsSection } from "./connections/ConnectionsSection";
import { SyncSection } from "./sync/SyncSection";

export function SettingsScreen() {
  const { t } = useTranslation();
  const [s, setS] = useState<client.SettingsForm | null>(null);
  const [presets, setPresets] = useState<PresetView[]>([]);
  const [dataDir, setDataDir] = useState("");
  /** How the database is encrypted (`storage.encryption`): keychain, passphrase or none. */
  const [encryption, setEncryption] = useState<Encryption | null>(null);
  const [keyInput, setKeyInput] = useState("");
  const [keySet, setKeySet] = useState(false);
  const [models, setModels] = useState<string[]>([]);
  const [saved, setSaved] = useState(false);
  /** The last connection test, worded at render time (so a language switch re-words it). */
  const [test, setTest] = useState<{ busy: true } | { busy: false; ok: boolean; model: string; message: string } | null>(null);
  const [error, setError] = useState<CommandError | null>(null);
  const [version, setVersion] = useState("");

  useEffect(() => {
    client.settings.get().then(
      (view) => {
        setS(formFromView(view));
        setPresets(view.presets);
        setDataDir(view.data_dir);
        setEncryption(view.settings.storage.encryption);
      },
      (e) => setError(client.toCommandError(e)),
    );
    // Deliberately quiet: the version is a detail at the foot of the page and nothing the person
    // can fix (the browser tests' mocked shell has no app API); the line is left out instead.
    client.appVersion().then(setVersion, () => setVersion(""));
  }, []);
  const preset = presets.find((p) => p.id === s?.preset);
  // The address requests go to: the base URL, else the preset's, else the default (Ollama's).
  const baseUrl = s?.base_url || preset?.base_url || presets[0]?.base_url || "";
  useEffect(() => {
    if (!baseUrl) return;
    client.apiKey.status(baseUrl).then(
      (st) => {
        setKeySet(st.is_set);
        recovered("settings");
      },
      (e) => {
        setKeySet(false);
        report("settings", e);
      },
    );
  }, [baseUrl]);

  if (!s)
    return (
      <div className="settings" role={error ? "alert" : undefined}>
        {error ? <FailureText failure={error} /> : t("app.starting")}
      </div>
    );
  const edit = (patch: Partial<client.SettingsForm>) => {
    setSaved(false);
    setS({ ...s, ...patch });
  };

  const save = async () => {
    setError(null);
    try {
      const view = await client.settings.update(changesFromForm(s));
      setS(formFromView(view));
      if (keyInput.trim()) {
        const status = await client.apiKey.set(baseUrl, keyInput.trim());
        setKeyInput("");
        setKeySet(status.is_set);
      }
      setLanguage(s.language);
      setSaved(true);
    } catch (e) {
      setError(client.toCommandError(e));
    }
  };
  const runTest = async () => {
    setTest({ busy: true });
    try {
      const r = await client.testConnection(baseUrl, s.model);
      setTest({ busy: false, ok: r.ok, model: r.model ?? "", message: r.error?.message ?? "" });
      if (r.ok) client.listModels(baseUrl).then(setModels, (e) => report("settings", e));
    } catch (e) {
      setTest({ busy: false, ok: false, model: "", message: client.toErrorInfo(e).message });
    }
  };

  return (
    <form className="settings" onSubmit={(e) => (e.preventDefault(), void save())}>
      <h1>{t("settings.title")}</h1>
      <FailureLine area="settings" />
      <Field label={t("settings.provider")}>
        <select
          data-testid="settings-preset"
          value={s.preset}
          onChange={(e) => {
            const p = presets.find((x) => x.id === e.target.value);
            edit({ preset: e.target.value, base_url: p?.base_url ?? s.base_url, model: p?.default_model ?? s.model });
          }}
        >
          <option value="">{t("settings.presetDetect")}</option>
          {s.preset && !presets.some((p) => p.id === s.preset) && <option value={s.preset}>{s.preset}</option>}
          {presets.map((p) => (
            <option key={p.id} value={p.id}>
              {p.label}
            </option>
          ))}
        </select>
      </Field>
      <Field label={t("settings.baseUrl")}>
        <input data-testid="settings-base-url" value={s.base_url} placeholder={baseUrl} onChange={(e) => edit({ base_url: e.target.value })} />
      </Field>
      <Field label={t("settings.model")}>
        <span className="row">
          <input data-testid="settings-model" list="model-list" value={s.model} onChange={(e) => edit({ model: e.target.value })} />
          <Button type="button" onClick={() => client.listModels(baseUrl).then(setModels, (e) => setError(client.toCommandError(e)))}>
            {t("settings.refreshModels")}
          </Button>
        </span>
        <datalist id="model-list">
          {models.map((m) => (
            <option key={m} value={m} />
          ))}
        </datalist>
      </Field>
      <Field label={t("settings.apiKey")}>
        <input
          data-testid="settings-api-key"
          type="password"
          autoComplete="off"
          placeholder={t("settings.apiKeyPlaceholder")}
          value={keyInput}
          onChange={(e) => setKeyInput(e.target.value)}
        />
        <span className="row muted">
          {keySet ? t("settings.apiKeySet") : t("settings.apiKeyNotSet")}
          {keySet && (
            <Button type="button" onClick={() => client.apiKey.clear(baseUrl).then((st) => setKeySet(st.is_set), (e) => setError(client.toCommandError(e)))}>
              {t("settings.clearKey")}
            </Button>
          )}
        </span>
      </Field>
      <Field label={t("settings.mode")}>
        <select value={s.tool_mode} onChange={(e) => edit({ tool_mode: e.target.value as client.ToolMode })}>
          {(["auto", "native", "structured"] as const).map((m) => (
            <option key={m} value={m}>
              {t(`settings.modes.${m}`)}
            </option>
          ))}
        </select>
      </Field>
      <Field label={t("settings.language")}>
        <select data-testid="settings-language" value={s.language} onChange={(e) => edit({ language: e.target.value })}>
          <option value="">{t("settings.languages.system")}</option>
          <option value="zh-CN">{t("settings.languages.zh-CN")}</option>
          <option value="en">{t("settings.languages.en")}</option>
        </select>
      </Field>
      <ThemeSwitch />
      <ReminderSettings />
      <DesktopSettings />
      <Field label={t("settings.dataDir")}>
        <span className="row">
          <input readOnly value={dataDir} />
          <Button type="button" onClick={() => void client.openDataDir().catch((e) => setError(client.toCommandError(e)))}>
            {t("settings.openFolder")}
          </Button>
        </span>
      </Field>
      <ModelsSection onUsed={() => client.settings.get().then((view) => setS(formFromView(view)), (e) => report("settings", e))} />
      <ConnectionsSection />
      <SyncSection />
      {encryption && (
        <p
          className={encryption === "none" ? "encryption bad" : "encryption muted"}
          data-testid="settings-encryption"
          role={encryption === "none" ? "alert" : undefined}
        >
          {t(`settings.encryption.${encryption === "none" ? "none" : encryption === "keychain" ? "keychain" : "passphrase"}`)}
        </p>
      )}
      {version && (
        <p className="about muted" data-testid="app-version">
          {t("settings.about", { version })}
        </p>
      )}
      <div className="actions settings-actions">
        <span className="settings-status">
          {test && (
            <Toast tone={!test.busy && test.ok ? "ok" : "danger"} role="status" data-testid="settings-test-result">
              {test.busy
                ? t("settings.testing")
                : test.ok
                  ? t("settings.testOk", { model: test.model })
                  : t("settings.testFailed", { message: test.message })}
            </Toast>
          )}
          {saved && (
            <Toast tone="ok">{t("settings.saved")}</Toast>
          )}
          {error && (
            <Toast tone="danger">
              <FailureText failure={error} />
            </Toast>
          )}
        </span>
        <Button type="button" data-testid="settings-test" onClick={() => void runTest()} disabled={test?.busy}>
          {t("settings.test")}
        </Button>
        <Button type="submit" variant="primary" data-testid="settings-save">
          {t("settings.save")}
        </Button>
      </div>
    </form>
  );
}
