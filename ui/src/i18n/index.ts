// Strings: one resource file per language (en.json, zh-CN.json) with typed keys (i18next's
// CustomTypeOptions below makes `t("no.such.key")` a type error). The language follows the
// system unless settings choose one.

import i18next from "i18next";
import { initReactI18next } from "react-i18next";
import en from "./en.json";
import zhCN from "./zh-CN.json";

export const resources = { en: { translation: en }, "zh-CN": { translation: zhCN } } as const;
export type Language = keyof typeof resources;
export const languages = Object.keys(resources) as Language[];

declare module "i18next" {
  interface CustomTypeOptions {
    defaultNS: "translation";
    resources: { translation: typeof en };
  }
}

/** The supported language closest to the system's (`navigator.languages`). */
export function systemLanguage(preferred: readonly string[]): Language {
  for (const tag of preferred) {
    if (tag.toLowerCase().startsWith("zh")) return "zh-CN";
    if (tag.toLowerCase().startsWith("en")) return "en";
  }
  return "en";
}

export function initI18n(lang?: string) {
  const chosen = lang && lang in resources ? lang : systemLanguage(navigator.languages ?? []);
  void i18next.use(initReactI18next).init({
    resources,
    lng: chosen,
    fallbackLng: false,
    interpolation: { escapeValue: false },
    returnNull: false,
  });
  document.documentElement.lang = chosen;
  return i18next;
}

export function setLanguage(lang: string) {
  const chosen = lang && lang in resources ? lang : systemLanguage(navigator.languages ?? []);
  void i18next.changeLanguage(chosen);
  document.documentElement.lang = chosen;
}
