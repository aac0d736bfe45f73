// When the window asks whether VibeLife may look for updates outside first run: only while
// the saved choice is "undecided" (a data folder from before the choice existed, or a first
// run left without answering). "ask" and "off" are answers; null is "not read yet".

import type { UpdateChecks } from "../wire";

export function asksUpdates(saved: UpdateChecks | null): boolean {
  return saved === "undecided";
}
