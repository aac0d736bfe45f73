// Desktop app benchmarks in a real window (run by scripts/bench-app.sh under Xvfb; figures in
// docs/performance.md, no assertions on time or memory):
// - memory: idle PSS of every process of the app (the app, WebKit's web and network processes)
//   after opening a conversation of 1,000 messages, and how many messages are in the DOM;
// - launch: from spawning the binary to the composer taking input (the app logs the wall-clock
//   time of that moment, `ui ready`), median of several runs;
// - tray: the same conversation open, then the window closed with "keep running in the tray":
//   PSS of the app idling in the tray (its web process gone), and from a second launch (which
//   hands over to the running app through tauri-plugin-single-instance on a private session
//   bus) to the new window's interactive composer.
// Environment: VIBELIFE_APP, TAURI_DRIVER, WEBKIT_DRIVER, DISPLAY; BENCH_RUNS (launch runs, 7);
// BENCH_DETAIL=1 lists the biggest mappings of the app's own PSS in the tray.

import { execFileSync, spawn } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { closeToTray, sessionBus, tree, uiReadyTimes } from "./processes.mjs";
import { driverArgs, Session, waitFor } from "./webdriver.mjs";

const APP = process.env.VIBELIFE_APP;
const TAURI_DRIVER = process.env.TAURI_DRIVER;
const WEBKIT_DRIVER = process.env.WEBKIT_DRIVER ?? "/usr/bin/WebKitWebDriver";
const PORT = Number(process.env.TAURI_DRIVER_PORT ?? 4444);
const RUNS = Number(process.env.BENCH_RUNS ?? 7);
const MESSAGES = 1000;

const root = mkdtempSync(join(tmpdir(), "vibelife-bench-"));
const env = {
  ...process.env,
  VIBE_DATA_DIR: join(root, "data"),
  XDG_DATA_HOME: join(root, "xdg-data"),
  XDG_CACHE_HOME: join(root, "xdg-cache"),
  XDG_CONFIG_HOME: join(root, "xdg-config"),
  DBUS_SESSION_BUS_ADDRESS: "disabled:",
  VIBE_LLM_BASE_URL: "",
};
mkdirSync(env.VIBE_DATA_DIR, { recursive: true });
// A configured app (no first run); the model is never called here.
// The database starts clear (so Python can write the conversation into it) and is then
// switched to a passphrase: the app encrypts it in place at the next start, as it does for a
// database from before encryption, and the figures are those of the encrypted app.
const settingsFile = join(env.VIBE_DATA_DIR, "settings.json");
const writeSettings = (encryption, on_close = "ask") =>
  writeFileSync(
    settingsFile,
    JSON.stringify({ llm: { base_url: "http://127.0.0.1:9/v1", model: "none" }, storage: { encryption }, preferences: { on_close } }),
  );
env.VIBE_DB_PASSPHRASE = "bench passphrase";
writeSettings("none");

/** PSS in kB of `pid` and each of its descendants. */
function treePss(pid) {
  const rows = [];
  for (const p of tree(pid)) {
    try {
      const rollup = readFileSync(`/proc/${p}/smaps_rollup`, "utf8");
      const pss = Number(/^Pss:\s+(\d+)/m.exec(rollup)?.[1] ?? 0);
      const name = readFileSync(`/proc/${p}/comm`, "utf8").trim();
      rows.push({ pid: p, name, pss });
    } catch {
      /* gone */
    }
  }
  return rows;
}

/** The biggest parts of a process's PSS by mapping (anonymous and heap grouped), in KiB. */
function topMappings(pid, count = 12) {
  const parts = new Map();
  let name = null;
  for (const line of readFileSync(`/proc/${pid}/smaps`, "utf8").split("\n")) {
    const head = /^[0-9a-f]+-[0-9a-f]+ \S+ \S+ \S+ \d+\s*(.*)$/.exec(line);
    if (head) name = head[1] || "[anonymous]";
    const pss = /^Pss:\s+(\d+)/.exec(line);
    if (pss && name) parts.set(name, (parts.get(name) ?? 0) + Number(pss[1]));
  }
  return [...parts].sort((a, b) => b[1] - a[1]).slice(0, count);
}

function appPid() {
  for (const d of readdirSync("/proc")) {
    if (!/^\d+$/.test(d)) continue;
    try {
      if (readFileSync(`/proc/${d}/cmdline`, "utf8").split("\0")[0] === APP && readFileSync(`/proc/${d}/environ`, "utf8").includes(root)) return Number(d);
    } catch {
      /* gone or not ours */
    }
  }
  return null;
}

/** First start (creates and migrates the database), then a conversation of 1,000 messages
 * (Markdown, CJK) written straight into the file; the database is then switched to a passphrase. */
async function prepare(base, caps) {
  if (existsSync(join(env.VIBE_DATA_DIR, "vibe.db"))) return;
  const s = await Session.start(base, caps);
  await s.byTestId("composer");
  await s.close();
  execFileSync("python3", ["-c", `
import sqlite3, sys
c = sqlite3.connect(sys.argv[1])
now = "2026-01-01T00:00:00Z"
c.execute("INSERT INTO conversations (id, user_id, title, created_at, updated_at) VALUES ('bench', 'local', '一千条消息', ?, ?)", (now, now))
for i in range(${MESSAGES}):
    role = "user" if i % 2 == 0 else "assistant"
    text = f"第 {i} 条：今天的心情怎么样？" if role == "user" else f"## 回复 {i}\\n\\n听起来你今天**很忙**。可以试试：\\n\\n1. 深呼吸三次；\\n2. 写下一件小事；\\n\\n| 时间 | 事情 |\\n|---|---|\\n| 早上 | 散步 |\\n\\n\`\`\`\\nprint({i})\\n\`\`\`"
    c.execute("INSERT INTO messages (conversation_id, role, content, created_at) VALUES ('bench', ?, ?, ?)", (role, text, now))
c.commit()
`, join(env.VIBE_DATA_DIR, "vibe.db")]);
  writeSettings("passphrase");
}

/** Opens the 1,000-message conversation in the window; answers how many messages are in the DOM. */
async function openConversation(s) {
  // The app opens on Today; the conversations are in the chat.
  await (await s.waitFind('[data-testid="nav-chat"]')).click();
  await (await s.waitFind('[data-testid="conversation-item"] button.title')).click();
  await waitFor("the conversation", async () => (await s.findAll('[data-testid="msg-assistant"]')).length > 0);
  return (await s.findAll('[data-testid="msg-user"], [data-testid="msg-assistant"]')).length;
}

const idle = () => new Promise((r) => setTimeout(r, 10_000));
const mb = (rows) => (rows.reduce((a, r) => a + r.pss, 0) / 1024).toFixed(0);

async function memory() {
  const driver = spawn(TAURI_DRIVER, await driverArgs(PORT, WEBKIT_DRIVER), { env, stdio: "ignore" });
  try {
    const base = `http://127.0.0.1:${PORT}`;
    await waitFor("tauri-driver", async () => (await fetch(`${base}/status`)).ok, 20_000, 200);
    const caps = { browserName: "wry", "tauri:options": { application: APP } };
    await prepare(base, caps);
    writeSettings("passphrase");
    const s = await Session.start(base, caps);
    const inDom = await openConversation(s);
    await idle();
    const pid = appPid();
    const rows = pid ? treePss(pid) : [];
    const clear = readFileSync(join(env.VIBE_DATA_DIR, "vibe.db")).includes(Buffer.from("第 0 条"));
    console.log(`memory: conversation of ${MESSAGES} messages, ${inDom} in the DOM; idle PSS ${mb(rows)} MB; database ${clear ? "CLEAR" : "encrypted"}`);
    for (const r of rows) console.log(`  ${r.name} (${r.pid}): ${(r.pss / 1024).toFixed(0)} MB`);
    await s.close();
  } finally {
    driver.kill("SIGTERM");
  }
}

async function tray() {
  const bus = await sessionBus();
  const trayEnv = { ...env, DBUS_SESSION_BUS_ADDRESS: bus.address };
  const driver = spawn(TAURI_DRIVER, await driverArgs(PORT, WEBKIT_DRIVER), { env: trayEnv, stdio: "ignore" });
  let pid = null;
  try {
    const base = `http://127.0.0.1:${PORT}`;
    await waitFor("tauri-driver", async () => (await fetch(`${base}/status`)).ok, 20_000, 200);
    const caps = { browserName: "wry", "tauri:options": { application: APP } };
    await prepare(base, caps);
    writeSettings("passphrase", "tray");
    const s = await Session.start(base, caps);
    const inDom = await openConversation(s);
    await idle();
    pid = appPid();
    if (!pid) throw new Error("the app's process was not found");
    const open = treePss(pid);
    await closeToTray(pid, waitFor);
    await idle();
    const inTray = treePss(pid);
    console.log(`tray: window with ${inDom} of ${MESSAGES} messages in the DOM, PSS ${mb(open)} MB; closed to the tray, idle PSS ${mb(inTray)} MB`);
    for (const r of inTray) console.log(`  ${r.name} (${r.pid}): ${(r.pss / 1024).toFixed(0)} MB`);
    if (process.env.BENCH_DETAIL) for (const [part, kb] of topMappings(pid)) console.log(`    ${(kb / 1024).toFixed(1)} MB ${part}`);
    const times = [];
    for (let i = 0; i < RUNS; i++) {
      const before = uiReadyTimes(env.XDG_DATA_HOME).length;
      const t0 = Date.now();
      const second = spawn(APP, [], { env: trayEnv, stdio: "ignore" });
      await new Promise((r) => second.once("exit", r));
      const ready = await waitFor("the reopened composer", () => uiReadyTimes(env.XDG_DATA_HOME)[before] ?? null, 30_000, 10);
      times.push(ready - t0);
      if (i + 1 < RUNS) await closeToTray(pid, waitFor);
    }
    times.sort((a, b) => a - b);
    console.log(`tray: reopen to interactive composer (${RUNS} runs): min ${times[0]} ms, median ${times[Math.floor(RUNS / 2)]} ms, max ${times.at(-1)} ms`);
  } finally {
    if (pid) process.kill(pid, "SIGTERM");
    driver.kill("SIGTERM");
    bus.daemon.kill("SIGTERM");
  }
}

async function launchOnce() {
  const logDir = join(env.XDG_DATA_HOME, "app.vibelife.desktop", "logs");
  rmSync(logDir, { recursive: true, force: true });
  const t0 = Date.now();
  const app = spawn(APP, [], { env, stdio: "ignore" });
  try {
    return await waitFor(
      "ui ready in the log",
      () => {
        if (!existsSync(logDir)) return null;
        for (const f of readdirSync(logDir)) {
          const m = /ui ready.*epoch_ms=(\d+)/.exec(readFileSync(join(logDir, f), "utf8"));
          if (m) return Number(m[1]) - t0;
        }
        return null;
      },
      30_000,
      10,
    );
  } finally {
    app.kill("SIGTERM");
    await new Promise((r) => app.once("exit", r));
  }
}

async function launch() {
  await launchOnce(); // warm-up (page cache, WebKit's first start)
  const times = [];
  for (let i = 0; i < RUNS; i++) times.push(await launchOnce());
  times.sort((a, b) => a - b);
  console.log(`launch to interactive composer (${RUNS} runs): min ${times[0]} ms, median ${times[Math.floor(RUNS / 2)]} ms, max ${times.at(-1)} ms`);
}

try {
  if (!APP || !TAURI_DRIVER) throw new Error("run scripts/bench-app.sh");
  const which = process.argv[2] ?? "all";
  if (which === "all" || which === "memory") await memory();
  if (which === "all" || which === "launch") await launch();
  if (which === "all" || which === "tray") await tray();
} finally {
  rmSync(root, { recursive: true, force: true });
}
