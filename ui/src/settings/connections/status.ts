// A server's live status as the Connections screen shows it: being tested, connected (its own
// name and how many tools), failed (the core's one-line reason and the last lines of the
// server's stderr it appended), or off. Built from `test_mcp_server`'s answer; no commands here.

import type { McpTestReport } from "../../wire";

export type ServerStatus =
  | { kind: "testing" }
  | { kind: "connected"; tools: number; serverName: string | null; version: string | null }
  | { kind: "failed"; reason: string; stderr: string[] }
  | { kind: "disabled" };

/** How vibe-mcp appends a stdio server's last stderr lines to an error's message. */
const STDERR_MARK = "\nlast lines of its stderr:";

/** A failure's message split into its reason and the stderr lines after it. */
export function splitFailure(message: string): { reason: string; stderr: string[] } {
  const at = message.indexOf(STDERR_MARK);
  if (at < 0) return { reason: message.trim(), stderr: [] };
  const stderr = message
    .slice(at + STDERR_MARK.length)
    .split("\n")
    .map((l) => l.replace(/^\s+/, ""))
    .filter((l) => l.length > 0);
  return { reason: message.slice(0, at).trim(), stderr };
}

export function statusFromReport(report: McpTestReport): ServerStatus {
  if (report.ok) return { kind: "connected", tools: report.tools, serverName: report.server_name, version: report.server_version };
  return { kind: "failed", ...splitFailure(report.error?.message ?? "") };
}
