// First run: offers a local model server the core found (Ollama on :11434, LM Studio on :1234)
// or, when none answered, explains what VibeLife needs and leads to Settings. The detection
// itself happens in the core (the webview reaches no network). When none answers, it also
// offers a model that runs inside VibeLife (ModelOffer.tsx). It also asks whether VibeLife may
// look for updates (UpdateChoice.tsx).

import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import * as client from "../client";
import { FailureText } from "../errors/Failure";
import type { CommandError, LocalServerView } from "../wire";
import { ModelOffer } from "./ModelOffer";
import { UpdateChoice } from "../updates/UpdateChoice";
import { Button, Card, Toast } from "../design";

type Props = {
  /** Settings were written from a detected server: go to the chat. */
  onReady: () => void;
  /** The person wants to enter a model by hand. */
  onOpenSettings: () => void;
};

export function FirstRun({ onReady, onOpenSettings }: Props) {
  const { t } = useTranslation();
  const [servers, setServers] = useState<LocalServerView[] | null>(null);
  const [chosen, setChosen] = useState<Record<string, string>>({});
  const [error, setError] = useState<CommandError | null>(null);
  const [busy, setBusy] = useState(false);

  const detect = () => {
    setServers(null);
    client.detectLocalServers().then(setServers, (e) => {
      setServers([]);
      setError(client.toCommandError(e));
    });
  };
  useEffect(detect, []);

  const use = async (server: LocalServerView) => {
    setBusy(true);
    setError(null);
    try {
      await client.useLocalServer(server.preset, server.base_url, chosen[server.preset] ?? server.models[0] ?? "");
      onReady();
    } catch (e) {
      setError(client.toCommandError(e));
    } finally {
      setBusy(false);
    }
  };

  return (
    <section className="first-run" data-testid="first-run">
      <h1>{t("firstRun.title")}</h1>
      <p>{t("firstRun.intro")}</p>
      {servers === null && <p className="muted">{t("firstRun.detecting")}</p>}
      {servers !== null && servers.length > 0 && (
        <>
          <p>{t("firstRun.found")}</p>
          <ul className="servers">
            {servers.map((s) => (
              <Card as="li" key={s.preset} data-testid="first-run-server">
                <strong>{s.label}</strong> <span className="muted">{s.base_url}</span>
                {s.models.length > 0 ? (
                  <select
                    aria-label={t("settings.model")}
                    value={chosen[s.preset] ?? s.models[0]}
                    onChange={(e) => setChosen({ ...chosen, [s.preset]: e.target.value })}
                  >
                    {s.models.map((m) => (
                      <option key={m} value={m}>
                        {m}
                      </option>
                    ))}
                  </select>
                ) : (
                  <span className="muted">{t("firstRun.noModels")}</span>
                )}
                <Button variant="primary" data-testid="first-run-use" disabled={busy || s.models.length === 0} onClick={() => void use(s)}>
                  {t("firstRun.use", { name: s.label })}
                </Button>
              </Card>
            ))}
          </ul>
        </>
      )}
      {servers !== null && servers.length === 0 && (
        <div className="none-found">
          <p>{t("firstRun.noneFound")}</p>
          <ul>
            <li>{t("firstRun.hintLocal")}</li>
            <li>{t("firstRun.hintHosted")}</li>
          </ul>
          <ModelOffer onReady={onReady} />
        </div>
      )}
      <UpdateChoice />
      {error && (
        <Toast as="p" tone="danger">
          <FailureText failure={error} />
        </Toast>
      )}
      <div className="actions">
        <Button onClick={detect} disabled={servers === null}>
          {t("firstRun.again")}
        </Button>
        <Button data-testid="first-run-settings" variant={servers?.length === 0 ? "primary" : "secondary"} onClick={onOpenSettings}>
          {t("firstRun.openSettings")}
        </Button>
      </div>
    </section>
  );
}
