// The colour theme: the person's choice (`preferences.theme`: light, dark or system) applied to
// <html data-theme>, following the OS while the choice is "system", and cached in localStorage
// so public/theme-init.js applies it before the first paint of the next start. The setting
// itself is the core's (saved by Settings); this module only applies it.

import type { Theme } from "../wire";

export const THEMES: readonly Theme[] = ["system", "light", "dark"];
const KEY = "vibelife.theme";
const DARK = "(prefers-color-scheme: dark)";

let current: Theme = "system";
let following = false;

/** The colours `choice` shows when the system prefers dark (`systemDark`) or not. */
export function resolveTheme(choice: Theme, systemDark: boolean): "light" | "dark" {
  return choice === "system" ? (systemDark ? "dark" : "light") : choice;
}

function systemDark(): boolean {
  return typeof window.matchMedia === "function" && window.matchMedia(DARK).matches;
}

function paint() {
  document.documentElement.dataset.theme = resolveTheme(current, systemDark());
}

/** The choice cached by the last start (what theme-init.js applied). */
export function cachedTheme(): Theme {
  try {
    const v = localStorage.getItem(KEY);
    return v === "light" || v === "dark" ? v : "system";
  } catch {
    return "system";
  }
}

/** Shows `choice` now, remembers it for the next start, and follows the OS while it is "system". */
export function applyTheme(choice: Theme) {
  current = THEMES.includes(choice) ? choice : "system";
  try {
    localStorage.setItem(KEY, current);
  } catch {
    // Deliberately quiet: without storage the next start follows the system until the settings
    // are read, which then applies the saved choice.
  }
  paint();
  if (!following && typeof window.matchMedia === "function") {
    following = true;
    window.matchMedia(DARK).addEventListener("change", () => {
      if (current === "system") paint();
    });
  }
}
