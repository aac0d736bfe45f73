// The app's own words for a `Hint` (the data a fix needs, sent with a failed command): each one
// names the screen or the action that fixes it, never a CLI flag. The CLI words the same hints
// in its own terms (crates/cli/src/output.rs). Owns wording only; showing it is the screens'.

import type { TFunction } from "i18next";
import type { Hint } from "../wire";

type Params = Record<string, string>;

/** The i18n parameters of each hint; the `Record` makes a new hint type a compile error here. */
const PARAMS: { [K in Hint["type"]]: (h: Extract<Hint, { type: K }>) => Params } = {
  setting: (h) => ({ key: h.key, file: h.file }),
  settings_file: (h) => ({ file: h.file }),
  endpoint: (h) => ({ base_url: h.base_url }),
  choose_model: (h) => ({ base_url: h.base_url }),
  api_key: (h) => ({ base_url: h.base_url }),
  keychain: () => ({}),
  needs_conversation: () => ({}),
  retry_turn: () => ({}),
  conversation: (h) => ({ id: h.id }),
  run: (h) => ({ id: h.id }),
  skill: (h) => ({ name: h.name }),
  data_dir: (h) => ({ path: h.path }),
  skill_resource: (h) => ({ skill: h.skill }),
  protocol: (h) => ({ id: h.id }),
  protocol_skill: (h) => ({ id: h.id }),
  protocol_start: (h) => ({ skill: h.skill }),
  protocol_run: (h) => ({ id: h.id }),
  memory_item: (h) => ({ id: h.id }),
  memory_off: () => ({}),
  birth_info: (h) => ({ field: h.field }),
  db_passphrase: (h) => ({ data_dir: h.data_dir }),
  db_key: (h) => ({ data_dir: h.data_dir }),
  local_model: (h) => ({ id: h.id }),
};

/** Every hint type, for tests that check each has words in every language. */
export const HINT_TYPES = Object.keys(PARAMS) as Hint["type"][];

/** Hints whose fix is on the Settings screen (the banner offers to open it). */
export const SETTINGS_HINTS: ReadonlySet<Hint["type"]> = new Set(["setting", "endpoint", "choose_model", "api_key", "local_model"]);

/** What to do about `hint`, in the UI's language; `null` when there is no hint. */
export function hintText(t: TFunction, hint: Hint | null | undefined): string | null {
  if (!hint) return null;
  const params = (PARAMS[hint.type] as (h: Hint) => Params)(hint);
  return t(`hints.${hint.type}`, { ...params, interpolation: { escapeValue: false } });
}
