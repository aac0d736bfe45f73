// The mock shell's updates, answering as the real shell does (src-tauri/src/update_runs.rs):
// `update_check` for the person's `preferences.updates` (not "ask": `not_allowed`, the fake
// server is not asked and an update found before is let go; an automatic check after one today:
// `not_due`, or the update the shell's clock found and no window was shown yet, once), then what
// `?update=` says the fake server offers: `?update=0.2.0` a newer version, `?update=none` nothing
// newer (the default), `?update=other` a manifest without this platform. `?updateChecked=today`:
// the last check was today (the window's start check is not due). `clock()` is the shell's clock
// a day later: it checks, and an update found is announced to the window (`vibelife:update-found`).
// `?updateInstall=bad_signature|truncated_download` makes the install refused; otherwise it is
// installed. `serverRequests` counts what reached the fake server.

import type { Settings, UpdateCheck, UpdateInstall, UpdateOffer } from "../wire";
import { reply, type Call } from "./call";

/** Who asks: a window (at its start or told by the clock), "Check now", or the shell's clock. */
export type Asker = "window" | "manual" | "clock";

export type UpdatesState = {
  serverRequests: number;
  checkedToday: boolean;
  installs: number;
  /** The shell's clock a day after the last check. */
  clock: () => UpdateCheck;
};

export function createUpdates(params: URLSearchParams, settings: () => Settings, announce: () => void = () => undefined) {
  const offered = params.get("update") ?? "none";
  const refuse = params.get("updateInstall");
  let found: { offer: UpdateOffer; shown: boolean } | null = null;
  function ask(): UpdateCheck {
    state.serverRequests += 1;
    if (offered === "none") return { outcome: "up_to_date" };
    if (offered === "other")
      return {
        outcome: "refused",
        reason: "no_build_for_platform",
        message: "None of the fallback platforms `[\"linux-x86_64-deb\", \"linux-x86_64\"]` were found in the response `platforms` object",
      };
    return {
      outcome: "available",
      offer: { version: offered, current_version: "0.1.0", notes: "Reminders arrive while VibeLife is in the tray.", date: "2026-11-28T09:00:00Z" },
    };
  }
  function check(asker: Asker): UpdateCheck {
    if (settings().preferences.updates !== "ask") {
      found = null;
      return { outcome: "not_allowed" };
    }
    if (asker !== "manual" && state.checkedToday) {
      if (asker === "window" && found && !found.shown) {
        found.shown = true;
        return { outcome: "available", offer: found.offer };
      }
      return { outcome: "not_due" };
    }
    state.checkedToday = true;
    const answer = ask();
    found = answer.outcome === "available" ? { offer: answer.offer, shown: asker !== "clock" } : null;
    return answer;
  }
  function install(): UpdateInstall {
    if (!found) return { outcome: "nothing_to_install" };
    state.serverRequests += 1;
    if (refuse === "bad_signature" || refuse === "truncated_download") return { outcome: "refused", reason: refuse, message: "refused" };
    state.installs += 1;
    return { outcome: "installed", version: offered };
  }
  const state: UpdatesState = {
    serverRequests: 0,
    checkedToday: params.get("updateChecked") === "today",
    installs: 0,
    clock: () => {
      state.checkedToday = false;
      const answer = check("clock");
      if (answer.outcome === "available") announce();
      return answer;
    },
  };
  function handle(call: Call): unknown {
    if (call.cmd === "update_check") return reply(call.cmd, check(call.request.manual ? "manual" : "window"));
    if (call.cmd === "update_install") return reply(call.cmd, install());
    return undefined;
  }
  return { handle, state };
}
