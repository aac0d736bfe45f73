// A skill finding worded in the UI's language: `path:line:col: severity: sentence`, the
// sentence from the finding's kind and parameters (`ProblemCode`); a kind this UI does not
// know, and `other`, show the checker's English sentence as it is.

import type { TFunction } from "i18next";
import type { SkillProblemView } from "../wire";
import { yamlDetail } from "./yamlDetail";

/** The YAML kinds the checker names (`found`), worded; anything else is shown as written. */
const KINDS = ["a list", "a mapping", "nothing", "text", "a number", "true or false"] as const;

export function findingText(f: SkillProblemView, t: TFunction): string {
  return findingParts(f, t).text;
}

/** The finding's line, and the parser's own words when they could not be put in the UI's
 * language (shown under the line, so the line itself is never half English). */
export function findingParts(f: SkillProblemView, t: TFunction): { text: string; detail: string | null } {
  const where = `${f.path}:${f.line}:${f.col}`;
  const severity = t(`skills.finding.severity.${f.severity}`);
  if (f.code.code === "invalid_yaml") {
    const worded = yamlDetail(f.code.detail, t);
    if (worded === null)
      return { text: `${where}: ${severity}: ${t("skills.finding.invalid_yaml_summary")}`, detail: f.code.detail };
  }
  return { text: `${where}: ${severity}: ${sentence(f, t)}`, detail: null };
}

function sentence(f: SkillProblemView, t: TFunction): string {
  const c = f.code;
  switch (c.code) {
    case "missing_field":
      return t("skills.finding.missing_field", { field: c.field });
    case "empty_field":
      return t("skills.finding.empty_field", { field: c.field });
    case "wrong_type": {
      const expected = (["text", "list", "mapping", "boolean", "positive_number"] as const).find((e) => e === c.expected);
      const kind = (KINDS as readonly string[]).indexOf(c.found);
      const found = kind >= 0 ? t(`skills.finding.kind.${kind}` as "skills.finding.kind.0") : c.found;
      return expected
        ? t("skills.finding.wrong_type", { field: c.field, expected: t(`skills.finding.expected.${expected}`), found })
        : f.message;
    }
    case "unknown_key":
      return t("skills.finding.unknown_key", { key: c.key, known: c.known });
    case "unknown_value":
      return t("skills.finding.unknown_value", { field: c.field, value: c.value, known: c.known });
    case "invalid_yaml":
      return t("skills.finding.invalid_yaml", { detail: yamlDetail(c.detail, t) ?? c.detail });
    case "name_not_folder":
      return t("skills.finding.name_not_folder", { name: c.name, folder: c.folder });
    case "cannot_read":
      return t("skills.finding.cannot_read", { detail: c.detail });
    default:
      return f.message;
  }
}
