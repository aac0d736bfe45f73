// The system's locale as the web view reports it, made safe for `Intl`. WebKitGTK under the
// C/POSIX locale (LANG=C or C.UTF-8: containers, minimal installs, CI machines) reports
// `navigator.language` as "C", which every `Intl` constructor refuses with a RangeError; a
// library that formats numbers when it loads (uPlot, behind Insights) then fails to load and
// takes its screen with it. `guardSystemLocale` swaps such tags for "en-US" before anything reads
// them. This module must not choose the UI's language (./index.ts does, from the same tags).

export const FALLBACK_LOCALE = "en-US";

/** Whether `Intl` accepts `tag` as a locale. */
export function isValidLocale(tag: string): boolean {
  try {
    return Intl.getCanonicalLocales(tag).length === 1;
  } catch {
    return false;
  }
}

/** The tags `Intl` accepts, in order; the fallback when none is. */
export function safeLocales(tags: readonly string[]): string[] {
  const valid = tags.filter(isValidLocale);
  return valid.length > 0 ? valid : [FALLBACK_LOCALE];
}

/** The part of `Navigator` this module reads and, when needed, overrides. */
export type LocaleSource = Pick<Navigator, "language" | "languages">;

/**
 * Makes `nav.language` and `nav.languages` tags `Intl` accepts, leaving them alone when they
 * already are. Answers whether it had to change them.
 */
export function guardSystemLocale(nav: LocaleSource = navigator): boolean {
  const reported = nav.languages && nav.languages.length > 0 ? [...nav.languages] : [nav.language];
  const languages = safeLocales(reported);
  if (isValidLocale(nav.language) && languages.length === reported.length) return false;
  const language = isValidLocale(nav.language) ? nav.language : (languages[0] ?? FALLBACK_LOCALE);
  Object.defineProperty(nav, "language", { configurable: true, get: () => language });
  Object.defineProperty(nav, "languages", { configurable: true, get: () => Object.freeze([...languages]) });
  return true;
}
