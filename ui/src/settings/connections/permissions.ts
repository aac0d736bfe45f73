// What a server may touch, as plain-word lines (i18n keys under `connections.perm` with their
// values), from its sandbox grant, for the add form and each server's card. The core words the
// same in English for the CLI (`McpServerView.permissions`); here it is worded in the UI's language.

import type { McpSandbox } from "../../wire";

/** The plain-word lines (`connections.perm.KEY`). */
export type PermissionKey = "sandboxed" | "noNetwork" | "network" | "readsNothing" | "reads" | "writesNothing" | "writes" | "unconfined" | "remote";

export interface PermissionLine {
  key: PermissionKey;
  values?: Record<string, string>;
  /** A warned line (no sandbox, or the network). */
  warn?: boolean;
}

export function permissionLines(sandbox: McpSandbox, remoteUrl: string | null): PermissionLine[] {
  if (remoteUrl) return [{ key: "remote", values: { url: remoteUrl } }];
  if (sandbox.unconfined) return [{ key: "unconfined", warn: true }];
  const out: PermissionLine[] = [{ key: "sandboxed" }];
  out.push(sandbox.network ? { key: "network", warn: true } : { key: "noNetwork" });
  out.push(sandbox.read.length > 0 ? { key: "reads", values: { dirs: sandbox.read.join(", ") } } : { key: "readsNothing" });
  out.push(sandbox.write.length > 0 ? { key: "writes", values: { dirs: sandbox.write.join(", ") } } : { key: "writesNothing" });
  return out;
}
