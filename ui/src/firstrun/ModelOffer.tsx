// First run without a local server: offers one catalogue model (Qwen2.5 1.5B when the
// catalogue has it) to download and use inside VibeLife, with progress and cancel. Once it is
// verified it becomes the model in use (the `local` preset) and the chat opens.

import { useCallback, useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import * as client from "../client";
import { FailureText } from "../errors/Failure";
import { FailureLine } from "../errors/FailureLine";
import { formatBytes, percent, useModelDownloads } from "../settings/modelDownloads";
import type { CatalogModelView, CommandError } from "../wire";
import { Button, Card, Toast } from "../design";

/** The model offered first: small enough for most machines, good enough to coach. */
const RECOMMENDED = "qwen2.5-1.5b-instruct-q4_k_m";

export function ModelOffer({ onReady }: { onReady: () => void }) {
  const { t } = useTranslation();
  const [model, setModel] = useState<CatalogModelView | null>(null);
  const [error, setError] = useState<CommandError | null>(null);
  useEffect(() => {
    client.localModels.list().then(
      (l) => setModel(l.catalog.find((m) => m.id === RECOMMENDED) ?? l.catalog[0] ?? null),
      (e) => setError(client.toCommandError(e)),
    );
  }, []);
  // Nothing to read again when a download settles: first run shows only the offered model.
  const downloads = useModelDownloads(useCallback(() => undefined, []));

  const start = async (m: CatalogModelView) => {
    setError(null);
    if (!m.installed && !(await downloads.pull(m.id, m.size_bytes))) return;
    try {
      await client.localModels.use(m.id);
      onReady();
    } catch (e) {
      setError(client.toCommandError(e));
    }
  };

  if (!model) return error ? <p className="bad">{<FailureText failure={error} />}</p> : null;
  const p = downloads.progress[model.id];
  return (
    <Card className="model-offer" data-testid="first-run-model">
      <h2>{t("firstRun.offerTitle")}</h2>
      <p>{t("firstRun.offer", { name: model.name, size: formatBytes(model.size_bytes), ram: formatBytes(model.ram_bytes) })}</p>
      {p ? (
        <div className="row">
          <progress data-testid="model-progress" max={Math.max(p.total, 1)} value={p.received} />
          <Toast tone="info">{t("models.progress", { received: formatBytes(p.received), total: formatBytes(p.total), percent: percent(p) })}</Toast>
          <Button onClick={() => void downloads.cancel(model.id)}>{t("models.cancel")}</Button>
        </div>
      ) : (
        <Button variant="primary" data-testid="first-run-download" onClick={() => void start(model)}>
          {t("firstRun.offerDownload")}
        </Button>
      )}
      {downloads.failure && (
        <p role="alert" className={downloads.failure.error.kind === "cancelled" ? "muted" : "bad"}>
          {downloads.failure.error.kind === "cancelled"
            ? t("models.cancelled", { id: downloads.failure.id })
            : t("models.failed", { id: downloads.failure.id, message: downloads.failure.error.message })}
        </p>
      )}
      {error && (
        <Toast as="p" tone="danger">
          <FailureText failure={error} />
        </Toast>
      )}
      <FailureLine area="downloads" />
    </Card>
  );
}
