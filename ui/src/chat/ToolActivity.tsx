// One tool call, compact (name and status) and expandable (arguments and result).

import { useTranslation } from "react-i18next";
import type { ToolActivity as Tool } from "./state";

function json(v: unknown): string {
  return typeof v === "string" ? v : JSON.stringify(v, null, 2);
}

export function ToolActivity({ tool }: { tool: Tool }) {
  const { t } = useTranslation();
  return (
    <details className={`tool tool-${tool.status}`} data-testid="tool-activity">
      <summary>
        <span className="tool-name">🔧 {tool.name}</span>
        <span className="tool-status">{t(`chat.toolStatus.${tool.status}`)}</span>
      </summary>
      <div className="tool-body">
        <div className="label">{t("chat.toolArguments")}</div>
        <pre>{json(tool.arguments)}</pre>
        {tool.result !== undefined && (
          <>
            <div className="label">{t("chat.toolResult")}</div>
            <pre>{json(tool.result)}</pre>
          </>
        )}
      </div>
    </details>
  );
}
