// The Settings screen's form from and to the core's settings: `SettingsView.settings` is the
// whole effective `settings.json` (defaults filled in); saving sends only the keys the form
// owns, as dotted changes the core validates together.

import type { SettingChange, SettingsView } from "../wire";
import type { SettingsForm, ToolMode } from "../client/types";

type Obj = Record<string, unknown>;
const obj = (v: unknown): Obj => (v && typeof v === "object" && !Array.isArray(v) ? (v as Obj) : {});
const str = (v: unknown): string => (typeof v === "string" ? v : "");

export function formFromView(view: SettingsView): SettingsForm {
  const doc = obj(view.settings);
  const llm = obj(doc.llm);
  const language = str(obj(doc.preferences).language);
  const mode = str(llm.tool_mode);
  return {
    preset: str(llm.preset),
    base_url: str(llm.base_url),
    model: str(llm.model),
    tool_mode: (["auto", "native", "structured"].includes(mode) ? mode : "auto") as ToolMode,
    language: language === "system" ? "" : language,
  };
}

/** Empty fields are removed from the file (`null`), so their defaults apply. */
export function changesFromForm(form: SettingsForm): SettingChange[] {
  const orNull = (s: string) => (s.trim() ? s.trim() : null);
  return [
    { key: "llm.preset", value: orNull(form.preset) },
    { key: "llm.base_url", value: orNull(form.base_url) },
    { key: "llm.model", value: orNull(form.model) },
    { key: "llm.tool_mode", value: form.tool_mode },
    { key: "preferences.language", value: form.language || "system" },
  ];
}
