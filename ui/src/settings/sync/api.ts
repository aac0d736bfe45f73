// Settings → Sync's commands (crates/wire/src/command/sync.rs) through the typed client. A
// target's password or secret key and a recovery code only ever travel in (setup, join);
// answers never hold them, except the new recovery code, answered once to be shown.

import { call, stream } from "../../client";
import type { Envelope, SyncJoinRequest, SyncSetupRequest } from "../../wire";

export const sync = {
  status: () => call("sync_status"),
  setup: (request: SyncSetupRequest) => call("sync_setup", request),
  join: (request: SyncJoinRequest) => call("sync_join", request),
  now: () => call("sync_now"),
  devices: () => call("sync_devices"),
  removeDevice: (device_id: string) => call("sync_remove_device", { device_id }),
  pause: (paused: boolean) => call("sync_pause", { paused }),
  /** From now on `sync_changed` (a run began or ended, paused…) arrives through `onEvent`. */
  watch: (onEvent: (e: Envelope) => void) => stream("watch_sync", onEvent),
};
