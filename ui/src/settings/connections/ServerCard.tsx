// One connection: its name, what it runs or where it is, its live status (tested when the
// screen opens and on "Test"), its permissions in plain words (and changing them), its secrets named as stored or
// missing (never their values), on/off, its tools, and remove after a confirmation.

import { useCallback, useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { toErrorInfo } from "../../client";
import { Button, Card, ConfirmDialog } from "../../design";
import type { McpServerView } from "../../wire";
import { mcp } from "./api";
import { GrantEditor } from "./GrantEditor";
import { Permissions } from "./Permissions";
import { statusFromReport, type ServerStatus } from "./status";
import { FailureDetail, StatusBadge } from "./StatusBadge";
import { ResourceList } from "./ResourceList";
import { ToolList } from "./ToolList";

export function ServerCard({ server, onChanged, onError }: { server: McpServerView; onChanged: () => void; onError: (e: unknown) => void }) {
  const { t } = useTranslation();
  const [status, setStatus] = useState<ServerStatus>(server.enabled ? { kind: "testing" } : { kind: "disabled" });
  const [showTools, setShowTools] = useState(false);
  const [showResources, setShowResources] = useState(false);
  const [confirm, setConfirm] = useState(false);
  const [editGrant, setEditGrant] = useState(false);
  const test = useCallback(async () => {
    setStatus({ kind: "testing" });
    try {
      setStatus(statusFromReport(await mcp.test(server.name)));
    } catch (e) {
      setStatus({ kind: "failed", reason: toErrorInfo(e).message, stderr: [] });
    }
  }, [server.name]);
  useEffect(() => {
    if (server.enabled) void test();
    else setStatus({ kind: "disabled" });
  }, [server.enabled, test]);
  const act = (f: () => Promise<unknown>) => () => void f().then(onChanged, onError);
  const what = server.url ?? [server.command, ...server.args].join(" ");
  const secrets = [...server.env, ...server.headers];
  return (
    <Card className="connection" data-testid={`connection-${server.name}`}>
      <div className="connection-head">
        <h3>{server.name}</h3>
        <StatusBadge status={status} />
      </div>
      <p className="muted small connection-what">
        <code>{what}</code>
      </p>
      <FailureDetail status={status} />
      <Permissions sandbox={server.sandbox} url={server.url} />
      {editGrant && <GrantEditor server={server} onSaved={onChanged} onClose={() => setEditGrant(false)} />}
      {secrets.length > 0 && (
        <p className="small" data-testid="connection-secrets">
          {secrets.map((n) => t(server.missing_secrets.includes(n) ? "connections.secretMissing" : "connections.secretSet", { name: n })).join(" · ")}
        </p>
      )}
      <div className="row">
        <Button size="sm" type="button" data-testid="connection-test" disabled={!server.enabled || status.kind === "testing"} onClick={() => void test()}>
          {t("connections.test")}
        </Button>
        <Button size="sm" type="button" data-testid="connection-tools-toggle" aria-expanded={showTools} disabled={!server.enabled} onClick={() => setShowTools((v) => !v)}>
          {showTools ? t("connections.hideTools") : t("connections.showTools")}
        </Button>
        <Button size="sm" type="button" data-testid="connection-resources-toggle" aria-expanded={showResources} disabled={!server.enabled} onClick={() => setShowResources((v) => !v)}>
          {showResources ? t("connections.hideResources") : t("connections.showResources")}
        </Button>
        {!server.url && !editGrant && (
          <Button size="sm" type="button" data-testid="connection-grant-edit" onClick={() => setEditGrant(true)}>
            {t("connections.editGrant")}
          </Button>
        )}
        <label className="check">
          <input type="checkbox" data-testid="connection-enabled" checked={server.enabled} onChange={act(() => mcp.setEnabled(server.name, !server.enabled))} />
          {t("connections.enabled")}
        </label>
        <Button size="sm" type="button" variant="danger" data-testid="connection-remove" onClick={() => setConfirm(true)}>
          {t("connections.remove")}
        </Button>
      </div>
      {showTools && server.enabled && <ToolList server={server.name} onChanged={onChanged} />}
      {showResources && server.enabled && <ResourceList server={server.name} />}
      {confirm && (
        <ConfirmDialog
          title={t("connections.removeTitle", { name: server.name })}
          cancelLabel={t("connections.cancel")}
          confirmLabel={t("connections.removeConfirm")}
          onCancel={() => setConfirm(false)}
          onConfirm={() => {
            setConfirm(false);
            act(() => mcp.remove(server.name))();
          }}
          data-testid="connection-remove-dialog"
          confirmTestId="connection-remove-confirm"
        >
          <p>{t("connections.removeBody")}</p>
        </ConfirmDialog>
      )}
    </Card>
  );
}
