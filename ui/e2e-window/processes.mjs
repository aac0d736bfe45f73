// Helpers of the real-window tests and benchmarks for an app that outlives its window (the
// tray): the process tree under a pid, its WebKit web processes, the app's log lines, a private
// D-Bus session bus (tauri-plugin-single-instance finds the running app through it), the X
// windows of a pid, and pressing a window's close button (close-window.py).

import { execFileSync, spawn } from "node:child_process";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";

/** The pids of `pid` and all its descendants. */
export function tree(pid) {
  const children = new Map();
  for (const d of readdirSync("/proc")) {
    if (!/^\d+$/.test(d)) continue;
    try {
      const stat = readFileSync(`/proc/${d}/stat`, "utf8");
      const ppid = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
      if (!children.has(ppid)) children.set(ppid, []);
      children.get(ppid).push(Number(d));
    } catch {
      /* gone */
    }
  }
  const out = [];
  const visit = (p) => {
    out.push(p);
    for (const c of children.get(p) ?? []) visit(c);
  };
  visit(pid);
  return out;
}

/** The WebKit web processes (the web view's memory) among the descendants of `pid`. */
export function webProcesses(pid) {
  return tree(pid).filter((p) => {
    try {
      return readFileSync(`/proc/${p}/cmdline`, "utf8").includes("WebKitWebProcess");
    } catch {
      return false;
    }
  });
}

/** Whether the process `pid` is alive (and not a zombie). */
export function alive(pid) {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    return stat.slice(stat.lastIndexOf(")") + 2)[0] !== "Z";
  } catch {
    return false;
  }
}

/** Every line of the app's log folder (`<XDG_DATA_HOME>/app.vibelife.desktop/logs`). */
export function logLines(xdgDataHome) {
  const dir = join(xdgDataHome, "app.vibelife.desktop", "logs");
  if (!existsSync(dir)) return [];
  return readdirSync(dir).flatMap((f) => readFileSync(join(dir, f), "utf8").split("\n"));
}

/** The wall-clock times (ms) of the log's `ui ready` lines: each an interactive composer. */
export const uiReadyTimes = (xdgDataHome) =>
  logLines(xdgDataHome).flatMap((l) => {
    const m = /ui ready.*epoch_ms=(\d+)/.exec(l);
    return m ? [Number(m[1])] : [];
  });

/** Starts a private session bus; answers its address and the daemon (kill it by its pid). */
export function sessionBus() {
  const daemon = spawn("dbus-daemon", ["--session", "--nofork", "--print-address=1"], { stdio: ["ignore", "pipe", "inherit"] });
  return new Promise((resolve, reject) => {
    daemon.stdout.on("data", (d) => {
      const address = String(d).trim().split("\n")[0];
      if (address) resolve({ address, daemon });
    });
    daemon.on("exit", (code) => reject(new Error(`dbus-daemon exited with ${code}`)));
  });
}

/** The X windows (ids) of `pid` that are mapped (`_NET_WM_PID`, set by GTK). */
export function windowsOf(pid) {
  try {
    return execFileSync("xdotool", ["search", "--onlyvisible", "--pid", String(pid)], { encoding: "utf8" }).split("\n").filter(Boolean);
  } catch {
    return []; // xdotool exits 1 when nothing matches
  }
}

/** Presses the close button of `pid`'s windows, as a window manager would (WM_DELETE_WINDOW). */
export function pressClose(pid) {
  const ids = windowsOf(pid);
  if (ids.length === 0) throw new Error(`no window of ${pid} to close`);
  execFileSync("/usr/bin/python3", [new URL("./close-window.py", import.meta.url).pathname, ...ids], { stdio: "inherit" });
}

/** Closes `pid`'s window (with "keep running in the tray" chosen) until its web processes are
 * gone. The close button is pressed again while a window is still there: under Xvfb, with no
 * window manager, a WM_DELETE_WINDOW sent in the first moments after the window is mapped can
 * be lost (GTK does not deliver it), which a person clicking never meets. */
export async function closeToTray(pid, waitFor) {
  await waitFor(
    "the window closed and its web processes gone",
    async () => {
      if (windowsOf(pid).length > 0) {
        try {
          pressClose(pid);
        } catch {
          /* the window went between the search and the message */
        }
      }
      return webProcesses(pid).length === 0;
    },
    30_000,
    1_000,
  );
}
