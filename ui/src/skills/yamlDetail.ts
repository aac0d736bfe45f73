// The YAML parser's own words (libyaml's, through serde_yaml_ng: "while parsing a flow
// sequence, did not find expected ',' or ']'") in the UI's language: each common phrase
// translated, its line and column worded. A detail with any phrase this table does not know is
// left whole, for the Skills screen to show under the localised summary instead.

import type { TFunction } from "i18next";

/** The parser's phrases, each with its key under `skills.finding.yaml` (longest first where one contains another). */
const PHRASES = [
  ["while parsing a block mapping", "blockMapping"],
  ["while parsing a block collection", "blockCollection"],
  ["while parsing a block node", "node"],
  ["while parsing a flow sequence", "flowSequence"],
  ["while parsing a flow mapping", "flowMapping"],
  ["while parsing a flow node", "node"],
  ["while parsing a node", "node"],
  ["while scanning a simple key", "simpleKey"],
  ["while scanning a quoted scalar", "quoted"],
  ["while scanning a block scalar", "blockScalar"],
  ["did not find expected key", "expectedKey"],
  ["did not find expected ',' or ']'", "commaOrBracket"],
  ["did not find expected ',' or '}'", "commaOrBrace"],
  ["did not find expected node content", "nodeContent"],
  ["did not find expected '-' indicator", "dash"],
  ["could not find expected ':'", "colon"],
  ["expected ',' or ']'", "commaOrBracket"],
  ["expected ',' or '}'", "commaOrBrace"],
  ["mapping values are not allowed in this context", "mappingHere"],
  ["block sequence entries are not allowed in this context", "sequenceHere"],
  ["found unexpected end of stream", "endOfStream"],
  ["found character that cannot start any token", "badStart"],
  ["found a tab character that violates indentation", "tab"],
  ["found unknown escape character", "escape"],
] as const;
export type YamlPhrase = (typeof PHRASES)[number][1];

const LOCATION = /\s*at line (\d+) column (\d+)/g;

/** `detail` worded in `t`'s language, or null when it holds a phrase the table does not know. */
export function yamlDetail(detail: string, t: TFunction): string | null {
  let rest = detail;
  let out = detail;
  for (const [phrase, key] of PHRASES) {
    if (!rest.includes(phrase)) continue;
    rest = rest.split(phrase).join(" ");
    out = out.split(phrase).join(t(`skills.finding.yaml.${key}`));
  }
  rest = rest.replace(LOCATION, " ");
  out = out.replace(LOCATION, (_, line: string, col: string) => t("skills.finding.yaml.at", { line, col }));
  out = out.split(", ").join(t("skills.finding.yaml.sep"));
  return /[A-Za-z]{2,}/.test(rest) ? null : out;
}

/** Every phrase key (for the test that each has words in every language). */
export const YAML_PHRASE_KEYS: readonly YamlPhrase[] = [...new Set(PHRASES.map(([, k]) => k))];
