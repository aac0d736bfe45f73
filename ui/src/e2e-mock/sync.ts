// The mock shell's sync (Settings → Sync), answering as the core does: set up (a new recovery
// code, answered once), join with a code, sync now, pause / resume, devices and removing one
// (a new code), and the `watch_sync` channel's `sync_changed`. A target's password or secret
// key goes to the fake keychain (`sync-secret`) and never comes back. Stand-ins for what a
// real target answers: a folder under /no-such/ is missing, a URL or endpoint with
// "unreachable" does not answer, the password or secret "wrong" is refused (HTTP 401), the
// bucket "missing-bucket" does not exist; the other device's code is `SYNC_OTHER_CODE`, any
// other well-formed code does not open the target. `?sync=on` starts set up, with a second
// device; `?sync=failing` also makes every run fail (as a target gone offline).

import type { Envelope, ErrorKind, SyncDeviceView, SyncRunView, SyncStatusView, SyncTarget } from "../wire";
import type { Call } from "./call";

/** The code "the first device" showed (what a test types to join). */
export const SYNC_OTHER_CODE = `VL1-${"ABCD-".repeat(12)}ABCD`;

const fail = (kind: ErrorKind, message: string) => ({ error: { kind, message }, hint: null });

function newCode(): string {
  const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567";
  const body = Array.from(crypto.getRandomValues(new Uint8Array(52)), (b) => alphabet[b % 32]).join("");
  return ["VL1", ...(body.match(/.{4}/g) ?? [])].join("-");
}

function shown(t: SyncTarget): string {
  if (t.kind === "folder") return t.path;
  if (t.kind === "webdav") return t.user ? `${t.url} (user ${t.user})` : t.url;
  return `s3 ${t.endpoint} bucket ${t.bucket}${t.root ? ` under ${t.root}` : ""}`;
}

/** What the real target would answer, or null when it is reachable and the login works. */
function reach(t: SyncTarget, secret: string | null) {
  if (t.kind === "folder")
    return t.path.startsWith("/no-such/") ? fail("not_found", `the sync folder ${t.path} does not exist: create it, or choose the folder your sync tool keeps`) : null;
  const url = t.kind === "webdav" ? t.url : t.endpoint;
  if (url.includes("unreachable")) return fail("network", `the sync target ${url} does not answer (connection refused): check the address and that the server runs`);
  if (secret === "wrong") return fail("auth", `the sync target ${url} refused the login (HTTP 401 Unauthorized): check the user name and password`);
  if (t.kind === "s3" && t.bucket === "missing-bucket") return fail("not_found", `the bucket missing-bucket does not exist at ${url} (NoSuchBucket): create it first`);
  return null;
}

export function createSync(params: URLSearchParams, keychain: Map<string, string>, send: (channel: number, index: number, env: Envelope) => void) {
  const me = "a1b2c3d4e5f60718";
  let target: SyncTarget | null = null;
  let paused = false;
  let pending = 2;
  let lastSync: string | null = null;
  let activity: SyncStatusView["activity"] = { running: false, last_run_at: null, last_run: null, last_error: null };
  let others: SyncDeviceView[] = [];
  let channel: number | null = null;
  let next = 0;
  let seq = 0;
  const failing = params.get("sync") === "failing";
  if (params.get("sync") === "on" || failing) {
    target = { kind: "folder", path: "/home/me/Sync/vibelife" };
    others = [{ device_id: "9f8e7d6c5b4a3921", name: "laptop", this_device: false, batches: 4, last_seen: "2026-11-29T08:00:00Z" }];
    if (failing) activity = { ...activity, last_run_at: "2026-11-29T09:00:00Z", last_error: fail("network", "the sync target /home/me/Sync/vibelife cannot be read (permission denied): check the folder's permissions").error };
  }

  const status = (): SyncStatusView => ({
    enabled: target !== null,
    target: target ? shown(target) : null,
    target_settings: target,
    device_id: target ? me : null,
    pending_changes: target ? pending : 0,
    last_sync: lastSync,
    devices: target ? devices() : [],
    paused,
    activity,
  });
  const devices = (): SyncDeviceView[] => [
    { device_id: me, name: "desktop", this_device: true, batches: 1, last_seen: lastSync },
    ...others,
  ];
  const changed = () => {
    if (channel !== null) send(channel, next++, { run_id: "", seq: seq++, ts: new Date().toISOString(), type: "sync_changed", status: status() } as Envelope);
  };
  const begin = (t: SyncTarget, secret: string | null) => {
    if (target) throw fail("invalid_input", `sync is already set up on this data folder, with ${shown(target)}`);
    const refused = reach(t, secret);
    if (refused) throw refused;
    if (secret) keychain.set("sync-secret", secret);
    target = t;
  };

  function handle({ cmd, request }: Call, args: Record<string, unknown>): unknown {
    switch (cmd) {
      case "sync_status":
        return status();
      case "watch_sync":
        channel = (args.onEvent as { id: number }).id;
        next = 0;
        return null;
      case "sync_setup": {
        begin(request.target, request.secret);
        others = [];
        changed();
        return { code: newCode(), status: status() };
      }
      case "sync_join": {
        const clean = request.code.replace(/[\s-]/g, "").toUpperCase();
        if (!/^VL1[A-Z2-7]{52}$/.test(clean)) throw fail("invalid_input", "this is not a VibeLife sync code: it has the wrong length or characters; copy it again from the first device");
        const refused = reach(request.target, request.secret);
        if (refused) throw refused;
        if (clean !== SYNC_OTHER_CODE.replace(/-/g, "")) throw fail("invalid_input", "the sync code does not open the sync target: it is the code of another sync folder, or the key was replaced (join with the newest code)");
        begin(request.target, request.secret);
        others = [{ device_id: "9f8e7d6c5b4a3921", name: "laptop", this_device: false, batches: 0, last_seen: null }];
        changed();
        return status();
      }
      case "sync_now": {
        if (!target) throw fail("invalid_input", "sync is not set up on this data folder");
        activity = { ...activity, running: true };
        changed();
        return new Promise((resolve, reject) =>
          setTimeout(() => {
            const at = new Date().toISOString();
            if (failing) {
              activity = { ...activity, running: false, last_run_at: at };
              changed();
              return reject(fail("network", "the sync target /home/me/Sync/vibelife cannot be read (permission denied): check the folder's permissions"));
            }
            const run: SyncRunView = { sent: pending > 0 ? 1 : 0, received: 1, changed: 3, deleted: 0, skipped: [], refused: [], new_device_id: null };
            pending = 0;
            lastSync = at;
            activity = { running: false, last_run_at: at, last_run: run, last_error: null };
            changed();
            resolve(run);
          }, 150),
        );
      }
      case "sync_devices":
        if (!target) throw fail("invalid_input", "sync is not set up on this data folder");
        return { devices: devices() };
      case "sync_remove_device": {
        if (request.device_id === me) throw fail("invalid_input", `${me} is this device: remove it from another device`);
        others = others.filter((d) => d.device_id !== request.device_id);
        changed();
        return { code: newCode(), status: status() };
      }
      case "sync_pause":
        if (!target) throw fail("invalid_input", "sync is not set up on this data folder");
        paused = request.paused;
        changed();
        return status();
      default:
        return undefined;
    }
  }
  return { handle };
}
