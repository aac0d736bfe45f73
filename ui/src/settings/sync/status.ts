// What Settings → Sync says about the state, as translation keys and values (pure, tested by
// form.test.ts): whether it runs, is paused or failed, the last run and what it did, and what
// waits to be sent. The core's words for a failure are shown as they are.

import type { SyncStatusView } from "../../wire";

type StatusKey = "lastRun" | "never" | "did" | "refused" | "skipped" | "pending" | "nothingPending";
export type Line = { key: `sync.status.${StatusKey}`; values?: Record<string, string | number> };

export type SyncState = "off" | "running" | "paused" | "failed" | "ok";

export function syncState(status: SyncStatusView | null): SyncState {
  if (!status?.enabled) return "off";
  if (status.activity.running) return "running";
  if (status.activity.last_error) return "failed";
  if (status.paused) return "paused";
  return "ok";
}

/** The status's lines, in order: last run (when and what it did), what waits, refusals. */
export function statusLines(status: SyncStatusView, when: (iso: string) => string): Line[] {
  const lines: Line[] = [];
  const last = status.activity.last_run_at ?? status.last_sync;
  lines.push(last ? { key: "sync.status.lastRun", values: { when: when(last) } } : { key: "sync.status.never" });
  const run = status.activity.last_run;
  if (run) {
    lines.push({ key: "sync.status.did", values: { sent: run.sent, received: run.received, changed: run.changed, deleted: run.deleted } });
    if (run.refused.length > 0) lines.push({ key: "sync.status.refused", values: { count: run.refused.length } });
    if (run.skipped.length > 0) lines.push({ key: "sync.status.skipped", values: { count: run.skipped.length } });
  }
  lines.push(status.pending_changes > 0 ? { key: "sync.status.pending", values: { count: status.pending_changes } } : { key: "sync.status.nothingPending" });
  return lines;
}
