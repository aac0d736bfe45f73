// The Settings screen's form from and to the core's settings: `SettingsView.settings` is the
// whole effective `settings.json` (defaults filled in, typed by the generated `Settings`);
// saving sends only the keys the form owns, as dotted changes (typed by the generated
// `SettingChange`) the core validates together.

import type { Language, SettingChange, SettingsView } from "../wire";
import type { SettingsForm } from "../client/types";

/** The form's language choice as the setting: empty (or anything unknown) follows the system. */
export function languageSetting(choice: string): Language {
  return choice === "zh-CN" || choice === "en" ? choice : "system";
}

export function formFromView(view: SettingsView): SettingsForm {
  const { llm, preferences } = view.settings;
  return {
    preset: llm.preset ?? "",
    base_url: llm.base_url ?? "",
    model: llm.model ?? "",
    tool_mode: llm.tool_mode,
    language: preferences.language === "system" ? "" : preferences.language,
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
    { key: "preferences.language", value: languageSetting(form.language) },
  ];
}
