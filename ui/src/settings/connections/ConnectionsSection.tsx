// Settings → Connections (docs/mcp.md): the MCP servers the person connected, each with its
// live status, permissions and tools (ServerCard), and adding one by form or by pasting a
// Claude Desktop config. Changes are saved at once by the core; this section holds no
// settings of its own and never sees a secret's value after it was typed.

import { useCallback, useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { toCommandError } from "../../client";
import { FailureText } from "../../errors/Failure";
import { Button, EmptyState, Toast } from "../../design";
import type { AddMcpServerRequest, CommandError, McpServerView } from "../../wire";
import { AddForm } from "./AddForm";
import { mcp } from "./api";
import { PasteJson } from "./PasteJson";
import { ServerCard } from "./ServerCard";
import "./connections.css";

export function ConnectionsSection() {
  const { t } = useTranslation();
  const [servers, setServers] = useState<McpServerView[] | null>(null);
  const [adding, setAdding] = useState<"form" | "paste" | null>(null);
  const [error, setError] = useState<CommandError | null>(null);
  const fail = useCallback((e: unknown) => setError(toCommandError(e)), []);
  const reload = useCallback(() => {
    mcp.list().then((list) => setServers(list.servers), fail);
  }, [fail]);
  useEffect(reload, [reload]);
  const add = async (request: AddMcpServerRequest) => {
    setError(null);
    try {
      await mcp.add(request);
      setAdding(null);
      reload();
      return true;
    } catch (e) {
      fail(e);
      return false;
    }
  };
  const importJson = async (json: string) => {
    setError(null);
    try {
      const report = await mcp.import(json);
      reload();
      return report;
    } catch (e) {
      fail(e);
      return null;
    }
  };
  return (
    // Inside Settings' form: Enter in a field here must not save that form.
    <section
      className="connections"
      aria-labelledby="connections-title"
      data-testid="settings-connections"
      onKeyDown={(e) => e.key === "Enter" && e.target instanceof HTMLInputElement && e.preventDefault()}
    >
      <h2 id="connections-title">{t("connections.title")}</h2>
      <p className="muted small">{t("connections.intro")}</p>
      {servers?.length === 0 && <EmptyState title={t("connections.empty")} />}
      {servers?.map((s) => (
        <ServerCard key={`${s.name}:${s.enabled}`} server={s} onChanged={reload} onError={fail} />
      ))}
      <div className="row" role="group" aria-label={t("connections.addTitle")}>
        <Button type="button" data-testid="connection-add-form" aria-pressed={adding === "form"} onClick={() => setAdding(adding === "form" ? null : "form")}>
          {t("connections.addByForm")}
        </Button>
        <Button type="button" data-testid="connection-add-paste" aria-pressed={adding === "paste"} onClick={() => setAdding(adding === "paste" ? null : "paste")}>
          {t("connections.addByPaste")}
        </Button>
      </div>
      {adding === "form" && <AddForm onAdd={add} />}
      {adding === "paste" && <PasteJson onImport={importJson} />}
      {error && (
        <Toast tone="danger" data-testid="connections-error">
          <FailureText failure={error} />
        </Toast>
      )}
    </section>
  );
}
