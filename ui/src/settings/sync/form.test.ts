// Settings → Sync's checks before anything is sent (form.ts) and the status lines (status.ts).

import { describe, expect, it } from "vitest";
import type { SyncStatusView } from "../../wire";
import { emptyTargetForm, normaliseCode, targetFromForm, type TargetForm } from "./form";
import { statusLines, syncState } from "./status";

const form = (patch: Partial<TargetForm>): TargetForm => ({ ...emptyTargetForm(), ...patch });
const CODE = `VL1-${"ABCD-".repeat(12)}ABCD`;

describe("targetFromForm", () => {
  it("takes a folder by its full path, without a secret", () => {
    expect(targetFromForm(form({ path: "  ~/Sync/vibelife " }))).toEqual({ request: { target: { kind: "folder", path: "~/Sync/vibelife" }, secret: null } });
    expect(targetFromForm(form({ path: "C:\\Sync" }))).toHaveProperty("request");
    expect(targetFromForm(form({ path: "" }))).toEqual({ problem: { field: "path", key: "required" } });
    expect(targetFromForm(form({ path: "Sync/vibelife" }))).toEqual({ problem: { field: "path", key: "absolute" } });
  });

  it("takes WebDAV with a user and a password, or neither, never credentials in the URL", () => {
    const dav = { kind: "webdav" as const, url: "https://cloud.example.org/dav/vibelife" };
    expect(targetFromForm(form({ ...dav, user: "me", secret: "pw" }))).toEqual({
      request: { target: { kind: "webdav", url: dav.url, user: "me" }, secret: "pw" },
    });
    expect(targetFromForm(form({ ...dav, user: "", secret: "left over" }))).toEqual({ request: { target: { kind: "webdav", url: dav.url, user: "" }, secret: null } });
    expect(targetFromForm(form({ ...dav, user: "me" }))).toEqual({ problem: { field: "secret", key: "required" } });
    expect(targetFromForm(form({ kind: "webdav", url: "cloud.example.org" }))).toEqual({ problem: { field: "url", key: "url" } });
    expect(targetFromForm(form({ kind: "webdav", url: "ftp://cloud.example.org" }))).toEqual({ problem: { field: "url", key: "url" } });
    expect(targetFromForm(form({ kind: "webdav", url: "https://me:pw@cloud.example.org" }))).toEqual({ problem: { field: "url", key: "credentials" } });
  });

  it("takes S3 with every field but the prefix, and checks the bucket's name", () => {
    const s3 = { kind: "s3" as const, endpoint: "https://s3.example.org", bucket: "my-bucket", region: "eu-central-1", accessKeyId: "AKIA1", secret: "sk" };
    expect(targetFromForm(form({ ...s3, prefix: " vibelife/ " }))).toEqual({
      request: { target: { kind: "s3", endpoint: s3.endpoint, bucket: "my-bucket", region: "eu-central-1", access_key_id: "AKIA1", root: "vibelife/" }, secret: "sk" },
    });
    expect(targetFromForm(form({ ...s3, accessKeyId: " " }))).toEqual({ problem: { field: "accessKeyId", key: "required" } });
    expect(targetFromForm(form({ ...s3, bucket: "My_Bucket" }))).toEqual({ problem: { field: "bucket", key: "bucket" } });
    expect(targetFromForm(form({ ...s3, secret: "" }))).toEqual({ problem: { field: "secret", key: "required" } });
    expect(targetFromForm(form({ ...s3, endpoint: "s3.example.org" }))).toEqual({ problem: { field: "endpoint", key: "url" } });
  });
});

describe("normaliseCode", () => {
  it("forgives spaces, dashes and case, as the core does", () => {
    expect(normaliseCode(CODE)).toBe(CODE);
    expect(normaliseCode(` ${CODE.toLowerCase().replace(/-/g, " ")} `)).toBe(CODE);
  });
  it("refuses what cannot be a code", () => {
    expect(normaliseCode("VL1-ABCD")).toBeNull();
    expect(normaliseCode(CODE.replace("VL1", "VL2"))).toBeNull();
    expect(normaliseCode(CODE.replace("ABCD", "AB01"))).toBeNull(); // 0 and 1 are not base32
  });
});

const status = (patch: Partial<SyncStatusView> = {}): SyncStatusView => ({
  enabled: true,
  target: "/sync",
  target_settings: { kind: "folder", path: "/sync" },
  device_id: "d",
  pending_changes: 0,
  last_sync: null,
  devices: [],
  paused: false,
  activity: { running: false, last_run_at: null, last_run: null, last_error: null },
  ...patch,
});

describe("status", () => {
  it("says the state, a failure before a pause", () => {
    expect(syncState(null)).toBe("off");
    expect(syncState(status({ enabled: false }))).toBe("off");
    expect(syncState(status())).toBe("ok");
    expect(syncState(status({ paused: true }))).toBe("paused");
    const failed = { running: false, last_run_at: "2026-01-01T00:00:00Z", last_run: null, last_error: { kind: "network" as const, message: "down" } };
    expect(syncState(status({ paused: true, activity: failed }))).toBe("failed");
    expect(syncState(status({ activity: { ...failed, running: true } }))).toBe("running");
  });

  it("lists the last run, what it did and what waits", () => {
    expect(statusLines(status(), (s) => s).map((l) => l.key)).toEqual(["sync.status.never", "sync.status.nothingPending"]);
    const run = { sent: 1, received: 2, changed: 3, deleted: 4, skipped: ["x"], refused: ["a", "b"], new_device_id: null };
    const lines = statusLines(status({ pending_changes: 5, activity: { running: false, last_run_at: "T", last_run: run, last_error: null } }), (s) => `at ${s}`);
    expect(lines).toEqual([
      { key: "sync.status.lastRun", values: { when: "at T" } },
      { key: "sync.status.did", values: { sent: 1, received: 2, changed: 3, deleted: 4 } },
      { key: "sync.status.refused", values: { count: 2 } },
      { key: "sync.status.skipped", values: { count: 1 } },
      { key: "sync.status.pending", values: { count: 5 } },
    ]);
  });
});
