// One tool call: a short line in the person's words (toolLine.ts) and its status; the raw call
// (name, arguments, result) only in the expandable details.

import { useTranslation } from "react-i18next";
import { useApp } from "../store";
import { useSkillName } from "./skillName";
import type { ToolActivity as Tool } from "./state";
import { toolLine, withEnglishStep } from "./toolLine";

function json(v: unknown): string {
  return typeof v === "string" ? v : JSON.stringify(v, null, 2);
}

/** `use_skill`'s line names the skill as a person reads it (its display name). */
function UseSkillLine({ tool }: { tool: Tool }) {
  const { t, i18n } = useTranslation();
  const args = tool.arguments as { skill?: unknown } | null;
  const skill = useSkillName(typeof args?.skill === "string" ? args.skill : "", i18n.language);
  return <>{toolLine(t, tool, skill)}</>;
}

const NONE: readonly string[] = [];

/** A protocol step's line names the next step in English in an English UI, when the protocol
 * followed has English names (the tool's result carries the Chinese title the model reads).
 * Selects only the name lists, which change with a step, not with each streamed delta. */
function AdvanceLine({ tool }: { tool: Tool }) {
  const { t, i18n } = useTranslation();
  const zh = useApp((s) => s.chat.protocol?.stepNames ?? NONE);
  const en = useApp((s) => s.chat.protocol?.stepNamesEn ?? NONE);
  return <>{toolLine(t, i18n.language.startsWith("en") ? withEnglishStep(tool, { zh, en }) : tool)}</>;
}

export function ToolActivity({ tool }: { tool: Tool }) {
  const { t } = useTranslation();
  return (
    <details className={`tool tool-${tool.status}`} data-testid="tool-activity">
      <summary>
        <span className="tool-line">
          {tool.name === "use_skill" ? (
            <UseSkillLine tool={tool} />
          ) : tool.name === "advance_protocol_step" ? (
            <AdvanceLine tool={tool} />
          ) : (
            toolLine(t, tool)
          )}
        </span>
        <span className="tool-status">{t(`chat.toolStatus.${tool.status}`)}</span>
      </summary>
      <div className="tool-body">
        <div className="label">{t("chat.toolDetails")}</div>
        <code className="tool-name">{tool.name}</code>
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
