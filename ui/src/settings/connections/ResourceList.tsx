// A server's resources (`mcp_server_resources`, asked of the server when opened): each with
// its name, type and description, and a button that reads it (`read_mcp_resource`) and puts
// its content into the next message (`chat/attachments`), said at once; a failure to list or
// read them is said with its reason.

import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { toCommandError } from "../../client";
import { attach } from "../../chat/attachments";
import { Button } from "../../design";
import { FailureText } from "../../errors/Failure";
import type { CommandError, McpResourceView } from "../../wire";
import { mcp } from "./api";

export function ResourceList({ server }: { server: string }) {
  const { t } = useTranslation();
  const [resources, setResources] = useState<McpResourceView[] | null>(null);
  const [error, setError] = useState<CommandError | null>(null);
  const [attached, setAttached] = useState<string[]>([]);
  useEffect(() => {
    mcp.resources(server).then(
      (list) => setResources(list.resources),
      (e) => setError(toCommandError(e)),
    );
  }, [server]);
  const add = async (r: McpResourceView) => {
    setError(null);
    try {
      const read = await mcp.readResource(server, r.uri);
      attach(`${t("connections.attachedHeader", { name: r.title ?? r.name, server })}\n${read.text}`);
      setAttached((a) => [...a, r.uri]);
    } catch (e) {
      setError(toCommandError(e));
    }
  };
  return (
    <div className="connection-resources" data-testid="connection-resources">
      {error && (
        <p className="connection-failure" role="alert">
          <FailureText failure={error} />
        </p>
      )}
      {!resources && !error && <p className="muted small">{t("connections.resourcesLoading")}</p>}
      {resources?.length === 0 && <p className="muted small">{t("connections.noResources")}</p>}
      {resources && resources.length > 0 && (
        <ul className="connection-tools">
          {resources.map((r) => (
            <li key={r.uri} data-testid="resource">
              <div className="tool-head">
                <strong>{r.title ?? r.name}</strong>
                {r.mime_type && <span className="tag">{r.mime_type}</span>}
                <Button size="sm" type="button" data-testid="resource-attach" disabled={attached.includes(r.uri)} onClick={() => void add(r)}>
                  {attached.includes(r.uri) ? t("connections.attached") : t("connections.attach")}
                </Button>
              </div>
              {r.description && <p className="muted small">{r.description}</p>}
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
