// Settings → Models: the models VibeLife can run on this computer (the catalogue, with size,
// memory, context and licence), downloads with progress and cancel, the free disk space,
// files added by path, "use this model" (the `local` preset) and removal. Lives inside the
// settings form, so every button is `type="button"`.

import { useCallback, useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import * as client from "../client";
import { FailureText } from "../errors/Failure";
import { FailureLine } from "../errors/FailureLine";
import type { CommandError, LocalModels } from "../wire";
import { formatBytes, percent, useModelDownloads } from "./modelDownloads";
import { Button, Toast } from "../design";

type Notice = { key: "used" | "removed" | "added"; id: string; size?: string } | null;

export function ModelsSection({ onUsed }: { onUsed: () => void }) {
  const { t } = useTranslation();
  const [list, setList] = useState<LocalModels | null>(null);
  const [error, setError] = useState<CommandError | null>(null);
  const [notice, setNotice] = useState<Notice>(null);
  const refresh = useCallback(() => {
    client.localModels.list().then(setList, (e) => setError(client.toCommandError(e)));
  }, []);
  useEffect(refresh, [refresh]);
  const downloads = useModelDownloads(refresh);

  const act = async (f: () => Promise<Notice>) => {
    setError(null);
    setNotice(null);
    downloads.clear();
    try {
      setNotice(await f());
    } catch (e) {
      setError(client.toCommandError(e));
    }
    refresh();
  };
  const use = (id: string) =>
    act(async () => {
      await client.localModels.use(id);
      onUsed();
      return { key: "used", id };
    });
  const remove = (id: string) =>
    act(async () => {
      const r = await client.localModels.remove(id);
      return { key: "removed", id, size: formatBytes(r.freed_bytes) };
    });
  const addFile = () =>
    act(async () => {
      const added = await client.localModels.addFile();
      return added ? { key: "added", id: added.id } : null;
    });

  if (!list)
    return (
      <section className="models" data-testid="models-section">
        <h2>{t("models.title")}</h2>
        {error ? <FailureText failure={error} /> : <p className="muted">{t("app.starting")}</p>}
      </section>
    );
  const catalogIds = new Set(list.catalog.map((m) => m.id));
  const own = list.installed.filter((m) => !catalogIds.has(m.id));
  const installedIds = new Set(list.installed.map((m) => m.id));
  const actions = (id: string) => (
    <>
      {list.in_use === id ? (
        <span className="ok" data-testid="model-in-use">
          {t("models.inUse")}
        </span>
      ) : (
        <Button type="button" variant="primary" data-testid="model-use" onClick={() => void use(id)}>
          {t("models.use")}
        </Button>
      )}
      <Button type="button" data-testid="model-remove" onClick={() => void remove(id)}>
        {t("models.remove")}
      </Button>
    </>
  );

  return (
    <section className="models" data-testid="models-section" aria-labelledby="models-title">
      <h2 id="models-title">{t("models.title")}</h2>
      <p className="muted">{t("models.intro")}</p>
      {list.free_bytes != null && (
        <p className="muted" data-testid="models-free">
          {t("models.free", { size: formatBytes(list.free_bytes), dir: list.models_dir })}
        </p>
      )}
      {list.catalog_error && (
        <Toast as="p" tone="danger" data-testid="models-catalog-error">
          {t("models.catalogError", { source: list.catalog_source, message: list.catalog_error.message })}
        </Toast>
      )}
      <ul className="model-list">
        {list.catalog.map((m) => {
          const p = downloads.progress[m.id];
          return (
            <li key={m.id} data-testid={`model-${m.id}`}>
              <div className="model-head">
                <strong>{m.name}</strong> <span className="muted">{m.quantization}</span>
              </div>
              <div className="muted">
                {t("models.facts", {
                  size: formatBytes(m.size_bytes),
                  ram: formatBytes(m.ram_bytes),
                  tokens: m.context_length.toLocaleString(),
                  license: m.license,
                })}
              </div>
              <div className="row">
                {p ? (
                  <>
                    <progress data-testid="model-progress" max={Math.max(p.total, 1)} value={p.received} />
                    <Toast tone="info" data-testid="model-progress-text">
                      {t("models.progress", { received: formatBytes(p.received), total: formatBytes(p.total), percent: percent(p) })}
                    </Toast>
                    <Button type="button" data-testid="model-cancel" onClick={() => void downloads.cancel(m.id)}>
                      {t("models.cancel")}
                    </Button>
                  </>
                ) : installedIds.has(m.id) ? (
                  actions(m.id)
                ) : (
                  <Button
                    type="button"
                    data-testid="model-download"
                    onClick={() => {
                      setNotice(null);
                      setError(null);
                      void downloads.pull(m.id, m.size_bytes);
                    }}
                  >
                    {m.partial_bytes ? t("models.resume", { size: formatBytes(m.partial_bytes) }) : t("models.download")}
                  </Button>
                )}
              </div>
            </li>
          );
        })}
        {own.map((m) => (
          <li key={m.id} data-testid={`model-${m.id}`}>
            <div className="model-head">
              <strong>{m.name}</strong> <span className="muted">{t("models.yours")}</span>
            </div>
            <div className="muted">{formatBytes(m.size_bytes)}</div>
            <div className="row">{actions(m.id)}</div>
          </li>
        ))}
      </ul>
      <div className="row">
        <Button type="button" data-testid="models-add-file" onClick={() => void addFile()}>
          {t("models.addFile")}
        </Button>
      </div>
      <p className="settings-status" data-testid="models-status">
        {downloads.finished && (
          <Toast tone="ok">
            {t("models.done", { id: downloads.finished })}
          </Toast>
        )}
        {downloads.failure && (
          <span role="alert" className={downloads.failure.error.kind === "cancelled" ? "muted" : "bad"}>
            {downloads.failure.error.kind === "cancelled"
              ? t("models.cancelled", { id: downloads.failure.id })
              : t("models.failed", { id: downloads.failure.id, message: downloads.failure.error.message })}
          </span>
        )}
        {notice && (
          <Toast tone="ok">
            {t(`models.${notice.key}`, { id: notice.id, size: notice.size ?? "" })}
          </Toast>
        )}
        {error && (
          <Toast tone="danger">
            <FailureText failure={error} />
          </Toast>
        )}
      </p>
      <FailureLine area="downloads" />
    </section>
  );
}
