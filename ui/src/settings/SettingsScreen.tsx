// Settings: provider preset, base URL, model (picker fed by the endpoint's model list), API key
// (to the keychain; the webview only learns whether one is stored), tool mode, language, the
// data folder, and a connection test.

import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import * as client from "../client";
import { setLanguage } from "../i18n";

export function SettingsScreen() {
  const { t } = useTranslation();
  const [s, setS] = useState<client.Settings | null>(null);
  const [keyInput, setKeyInput] = useState("");
  const [keySet, setKeySet] = useState(false);
  const [models, setModels] = useState<string[]>([]);
  const [saved, setSaved] = useState(false);
  const [test, setTest] = useState<{ busy: boolean; text: string; ok: boolean } | null>(null);
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    client.settings.get().then(setS, (e) => setError(client.toErrorInfo(e).message));
  }, []);
  const baseUrl = s?.llm.base_url ?? "";
  useEffect(() => {
    if (baseUrl) client.apiKey.isSet(baseUrl).then(setKeySet, () => setKeySet(false));
  }, [baseUrl]);

  if (!s) return <div className="settings">{error ?? "…"}</div>;
  const llm = (patch: Partial<client.LlmSettings>) => {
    setSaved(false);
    setS({ ...s, llm: { ...s.llm, ...patch } });
  };

  const save = async () => {
    setError(null);
    try {
      await client.settings.set({ llm: s.llm, language: s.language });
      if (keyInput.trim()) {
        await client.apiKey.set(s.llm.base_url, keyInput.trim());
        setKeyInput("");
        setKeySet(await client.apiKey.isSet(s.llm.base_url));
      }
      setLanguage(s.language);
      setSaved(true);
    } catch (e) {
      setError(client.toErrorInfo(e).message);
    }
  };
  const runTest = async () => {
    setTest({ busy: true, text: t("settings.testing"), ok: false });
    try {
      const r = await client.testConnection(s.llm.base_url, s.llm.model);
      if (r.ok) setModels(r.models);
      setTest({
        busy: false,
        ok: r.ok,
        text: r.ok ? t("settings.testOk", { count: r.models.length }) : t("settings.testFailed", { message: r.error?.message ?? "" }),
      });
    } catch (e) {
      setTest({ busy: false, ok: false, text: t("settings.testFailed", { message: client.toErrorInfo(e).message }) });
    }
  };

  return (
    <form className="settings" onSubmit={(e) => (e.preventDefault(), void save())}>
      <h1>{t("settings.title")}</h1>
      <label>
        {t("settings.provider")}
        <select
          value={s.llm.preset}
          onChange={(e) => {
            const p = s.presets.find((x) => x.name === e.target.value);
            llm({ preset: e.target.value, base_url: p?.base_url || s.llm.base_url });
          }}
        >
          {s.presets.map((p) => (
            <option key={p.name} value={p.name}>
              {p.name}
            </option>
          ))}
        </select>
      </label>
      <label>
        {t("settings.baseUrl")}
        <input data-testid="settings-base-url" value={s.llm.base_url} onChange={(e) => llm({ base_url: e.target.value })} />
      </label>
      <label>
        {t("settings.model")}
        <span className="row">
          <input data-testid="settings-model" list="model-list" value={s.llm.model} onChange={(e) => llm({ model: e.target.value })} />
          <button type="button" onClick={() => client.listModels(s.llm.base_url).then(setModels, (e) => setError(client.toErrorInfo(e).message))}>
            {t("settings.refreshModels")}
          </button>
        </span>
        <datalist id="model-list">
          {models.map((m) => (
            <option key={m} value={m} />
          ))}
        </datalist>
      </label>
      <label>
        {t("settings.apiKey")}
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
            <button type="button" onClick={() => client.apiKey.clear(s.llm.base_url).then(() => setKeySet(false))}>
              {t("settings.clearKey")}
            </button>
          )}
        </span>
      </label>
      <label>
        {t("settings.mode")}
        <select value={s.llm.tool_mode} onChange={(e) => llm({ tool_mode: e.target.value as client.ToolMode })}>
          {(["auto", "native", "structured"] as const).map((m) => (
            <option key={m} value={m}>
              {t(`settings.modes.${m}`)}
            </option>
          ))}
        </select>
      </label>
      <label>
        {t("settings.language")}
        <select value={s.language} onChange={(e) => (setSaved(false), setS({ ...s, language: e.target.value }))}>
          <option value="">{t("settings.languages.system")}</option>
          <option value="zh-CN">{t("settings.languages.zh-CN")}</option>
          <option value="en">{t("settings.languages.en")}</option>
        </select>
      </label>
      <label>
        {t("settings.dataDir")}
        <span className="row">
          <input readOnly value={s.data_dir} />
          <button type="button" onClick={() => void client.openDataDir()}>
            {t("settings.openFolder")}
          </button>
        </span>
      </label>
      <div className="actions settings-actions">
        <span className="settings-status">
          {test && (
            <span data-testid="settings-test-result" className={test.ok ? "ok" : "bad"} role="status">
              {test.text}
            </span>
          )}
          {saved && (
            <span role="status" className="ok">
              {t("settings.saved")}
            </span>
          )}
          {error && (
            <span role="alert" className="bad">
              {error}
            </span>
          )}
        </span>
        <button type="button" data-testid="settings-test" onClick={() => void runTest()} disabled={test?.busy}>
          {t("settings.test")}
        </button>
        <button type="submit" className="primary" data-testid="settings-save">
          {t("settings.save")}
        </button>
      </div>
    </form>
  );
}
