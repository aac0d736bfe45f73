// The mock shell's updates: `update_check` answers as the real shell does for the person's
// `preferences.updates` (not "ask": `not_allowed`, and the fake server is not asked; an automatic
// check after one today: `not_due`), then what `?update=` says the fake server offers:
// `?update=0.2.0` a newer version, `?update=none` nothing newer (the default), `?update=other`
// a manifest without this platform. `?updateInstall=bad_signature|truncated_download` makes the
// install refused; otherwise it is installed. `serverRequests` counts what reached the fake server.

import type { Settings, UpdateCheck, UpdateInstall } from "../wire";
import { reply, type Call } from "./call";

export function createUpdates(params: URLSearchParams, settings: () => Settings) {
  const state = { serverRequests: 0, checkedToday: false, installs: 0 };
  const offered = params.get("update") ?? "none";
  const refuse = params.get("updateInstall");
  let found = false;
  function check(manual: boolean): UpdateCheck {
    if (settings().preferences.updates !== "ask") return { outcome: "not_allowed" };
    if (!manual && state.checkedToday) return { outcome: "not_due" };
    state.checkedToday = true;
    state.serverRequests += 1;
    found = false;
    if (offered === "none") return { outcome: "up_to_date" };
    if (offered === "other")
      return {
        outcome: "refused",
        reason: "no_build_for_platform",
        message: "None of the fallback platforms `[\"linux-x86_64-deb\", \"linux-x86_64\"]` were found in the response `platforms` object",
      };
    found = true;
    return {
      outcome: "available",
      offer: { version: offered, current_version: "0.1.0", notes: "Reminders arrive while VibeLife is in the tray.", date: "2026-11-28T09:00:00Z" },
    };
  }
  function install(): UpdateInstall {
    if (!found) return { outcome: "nothing_to_install" };
    state.serverRequests += 1;
    if (refuse === "bad_signature" || refuse === "truncated_download") return { outcome: "refused", reason: refuse, message: "refused" };
    state.installs += 1;
    return { outcome: "installed", version: offered };
  }
  function handle(call: Call): unknown {
    if (call.cmd === "update_check") return reply(call.cmd, check(call.request.manual));
    if (call.cmd === "update_install") return reply(call.cmd, install());
    return undefined;
  }
  return { handle, state };
}
