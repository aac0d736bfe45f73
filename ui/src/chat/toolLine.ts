// The short, localised line a person reads for one built-in tool's activity ("Saved your journal
// entry", "记下了第 1 步"), worded from the call's arguments and result. The raw call stays in
// the activity's details; this module only words it and must not decide anything.

import type { TFunction } from "i18next";
import type { ToolActivity } from "./state";

/** Every built-in tool with a line of its own (the core's `BUILTIN_TOOLS`; a test keeps them equal). */
export const TOOL_LINES = [
  "use_skill",
  "read_state",
  "write_state",
  "append_to_list",
  "update_plan",
  "load_resource",
  "run_script",
  "show_chart",
  "compute_chart",
  "draw_tarot",
  "show_protocol_invitation",
  "advance_protocol_step",
  "cancel_protocol",
  "flag_wellbeing_concern",
  "use_connection",
] as const;
export type BuiltinTool = (typeof TOOL_LINES)[number];

/** The lifecoach state's sections a line names in words (others by their key). */
const SECTIONS = ["north_star", "goals", "current", "journal"] as const;

type Obj = Record<string, unknown>;
const obj = (v: unknown): Obj => (v && typeof v === "object" && !Array.isArray(v) ? (v as Obj) : {});
const str = (v: unknown): string => (typeof v === "string" ? v : "");

function section(t: TFunction, key: string): string {
  return (SECTIONS as readonly string[]).includes(key)
    ? t(`chat.toolSection.${key as (typeof SECTIONS)[number]}`)
    : key;
}

/** The connection and the tool's own name of a connected server's tool (`mcp__SERVER__TOOL`). */
export function connectionTool(name: string): { server: string; tool: string } | null {
  const m = /^mcp__(.+?)__(.+)$/.exec(name);
  return m ? { server: m[1] ?? "", tool: m[2] ?? "" } : null;
}

/** Whether `name` is a built-in tool with its own line. */
export function isBuiltin(name: string): name is BuiltinTool {
  return (TOOL_LINES as readonly string[]).includes(name);
}

/** `advance_protocol_step`'s result with the next step's title in English, when the protocol
 * being followed names that step (in Chinese) as the result does and has an English name. */
export function withEnglishStep<T extends Pick<ToolActivity, "name" | "result">>(
  tool: T,
  names: { zh: readonly string[]; en: readonly string[] },
): T {
  const result = obj(tool.result);
  const next = obj(result.next_step);
  const step = typeof next.step === "number" ? next.step : 0;
  const en = names.en[step - 1];
  if (tool.name !== "advance_protocol_step" || !en || names.zh[step - 1] !== str(next.title)) return tool;
  return { ...tool, result: { ...result, next_step: { ...next, title: en } } };
}

/** The line for `tool`; a tool that is not built in (a skill's own) is named as it is.
 * `skillName`: the display name of the skill `use_skill` opened, when known. */
export function toolLine(
  t: TFunction,
  tool: Pick<ToolActivity, "name" | "arguments" | "result">,
  skillName?: string,
): string {
  const args = obj(tool.arguments);
  const result = obj(tool.result);
  const name = tool.name;
  const mcp = connectionTool(name);
  if (mcp) return t("chat.toolLine.mcp", mcp);
  if (!isBuiltin(name)) return t("chat.toolLine.other", { name });
  switch (name) {
    case "use_skill":
      return t("chat.toolLine.use_skill", { skill: skillName || str(args.skill) || str(result.skill) });
    case "read_state": {
      const sections = Array.isArray(args.sections) ? args.sections.map(str).filter(Boolean) : [];
      return sections.length === 0
        ? t("chat.toolLine.read_state_all")
        : t("chat.toolLine.read_state", { what: sections.map((s) => section(t, s)).join(t("chat.toolLine.and")) });
    }
    case "write_state":
      return t("chat.toolLine.write_state", { what: section(t, str(args.section)) });
    case "append_to_list":
      return str(args.path) === "journal"
        ? t("chat.toolLine.append_journal")
        : t("chat.toolLine.append_to_list", { what: section(t, str(args.path)) });
    case "advance_protocol_step": {
      if (str(result.status) === "completed") return t("chat.toolLine.protocol_completed");
      const saved = typeof result.saved_step === "number" ? result.saved_step : null;
      const next = obj(result.next_step);
      if (saved !== null && str(next.title))
        return t("chat.toolLine.advance_next", { step: saved, next: str(next.title) });
      if (saved !== null) return t("chat.toolLine.advance_saved", { step: saved });
      return t("chat.toolLine.advance_protocol_step");
    }
    case "load_resource":
      return t("chat.toolLine.load_resource", { path: str(args.path) });
    case "run_script":
      return t("chat.toolLine.run_script", { script: str(args.script) });
    case "use_connection":
      return t("chat.toolLine.use_connection", { server: str(args.server) || str(result.server) });
    default:
      return t(`chat.toolLine.${name}`);
  }
}
