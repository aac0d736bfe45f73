// A server's tools (asked of the server when opened): each with its description, the server's
// hints (read-only, destructive, open-world: hints, not guarantees) and an "always allow"
// switch saved at once; a failure to list them is said with its reason.

import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { toCommandError } from "../../client";
import { FailureText } from "../../errors/Failure";
import type { CommandError, McpToolView } from "../../wire";
import { mcp } from "./api";

export function ToolList({ server, onChanged }: { server: string; onChanged: () => void }) {
  const { t } = useTranslation();
  const [tools, setTools] = useState<McpToolView[] | null>(null);
  const [error, setError] = useState<CommandError | null>(null);
  useEffect(() => {
    mcp.tools(server).then(
      (list) => setTools(list.tools),
      (e) => setError(toCommandError(e)),
    );
  }, [server]);
  const toggle = async (tool: McpToolView, on: boolean) => {
    setError(null);
    try {
      const view = await mcp.setAlwaysAllow(server, tool.name, on);
      setTools((ts) => ts?.map((x) => ({ ...x, always_allow: view.always_allow.includes(x.name) })) ?? ts);
      onChanged();
    } catch (e) {
      setError(toCommandError(e));
    }
  };
  if (error)
    return (
      <p className="connection-failure" role="alert">
        <FailureText failure={error} />
      </p>
    );
  if (!tools) return <p className="muted small">{t("connections.toolsLoading")}</p>;
  if (tools.length === 0) return <p className="muted small">{t("connections.noTools")}</p>;
  return (
    <ul className="connection-tools" data-testid="connection-tools">
      {tools.map((tool) => (
        <li key={tool.name} data-testid={`tool-${tool.name}`}>
          <div className="tool-head">
            <strong>{tool.title ?? tool.name}</strong>
            {tool.read_only && <span className="tag ok">{t("connections.hint.readOnly")}</span>}
            {tool.destructive && <span className="tag bad">{t("connections.hint.destructive")}</span>}
            {tool.open_world && <span className="tag">{t("connections.hint.openWorld")}</span>}
            <label className="check always">
              <input type="checkbox" data-testid="tool-always" checked={tool.always_allow} onChange={(e) => void toggle(tool, e.target.checked)} />
              {t("connections.alwaysAllow")}
            </label>
          </div>
          {tool.description && <p className="muted small">{tool.description}</p>}
        </li>
      ))}
    </ul>
  );
}
