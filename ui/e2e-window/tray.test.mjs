// The tray in a real window (run by scripts/test-app-window.sh under Xvfb, after
// window.test.mjs): the built `vibelife` binary started as autostart starts it (`--minimized`:
// the tray, no window), its window opened by a second launch (tauri-plugin-single-instance over
// a private D-Bus session bus: the second process hands over and ends), closed with "keep
// running in the tray" chosen — the app process lives on and its WebKit web processes are gone
// — and opened again to an interactive composer; a SIGTERM (a logout) then quits it with the
// database's session closed. Then the Settings switch "start at login"
// writes and removes the XDG autostart entry (under the test's own HOME), through
// tauri-driver + WebKitWebDriver.
//
// Environment: VIBELIFE_APP, TAURI_DRIVER, WEBKIT_DRIVER, TAURI_DRIVER_PORT (this file uses the
// next port), DISPLAY (Xvfb).

import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, test } from "node:test";
import { alive, closeToTray, logLines, sessionBus, uiReadyTimes, webProcesses, windowsOf } from "./processes.mjs";
import { driverArgs, Session, waitFor } from "./webdriver.mjs";

const APP = need("VIBELIFE_APP");
const TAURI_DRIVER = need("TAURI_DRIVER");
const WEBKIT_DRIVER = process.env.WEBKIT_DRIVER ?? "/usr/bin/WebKitWebDriver";
const PORT = Number(process.env.TAURI_DRIVER_PORT ?? 4444) + 1;

function need(name) {
  const v = process.env[name];
  if (!v) throw new Error(`${name} is not set (run scripts/test-app-window.sh)`);
  return v;
}

let root;
let bus;
const children = [];

/** The app's environment over a folder of its own (`name`): data, XDG dirs and HOME inside it. */
function appEnv(name, dbus) {
  const dir = join(root, name);
  const env = {
    ...process.env,
    HOME: join(dir, "home"),
    VIBE_DATA_DIR: join(dir, "data"),
    XDG_DATA_HOME: join(dir, "xdg-data"),
    XDG_CACHE_HOME: join(dir, "xdg-cache"),
    XDG_CONFIG_HOME: join(dir, "xdg-config"),
    DBUS_SESSION_BUS_ADDRESS: dbus,
    VIBE_LLM_BASE_URL: "",
    VIBE_LLM_MODEL: "",
    VIBE_LLM_API_KEY: "",
  };
  for (const d of [env.HOME, env.VIBE_DATA_DIR]) mkdirSync(d, { recursive: true });
  // A configured app (no first run, no passphrase), which keeps running in the tray when its
  // window is closed; the model is never called here.
  writeFileSync(
    join(env.VIBE_DATA_DIR, "settings.json"),
    JSON.stringify({ llm: { base_url: "http://127.0.0.1:9/v1", model: "none" }, storage: { encryption: "none" }, preferences: { on_close: "tray" } }),
  );
  return env;
}

function start(cmd, args, env) {
  const child = spawn(cmd, args, { env, stdio: ["ignore", "ignore", process.env.WINDOW_TEST_VERBOSE ? "inherit" : "ignore"] });
  children.push(child);
  return child;
}

before(async () => {
  root = mkdtempSync(join(tmpdir(), "vibelife-tray-"));
  bus = await sessionBus();
  children.push(bus.daemon);
});

after(async () => {
  for (const child of children.reverse()) {
    if (child.exitCode !== null || child.signalCode !== null) continue;
    const exited = new Promise((resolve) => child.once("exit", resolve));
    child.kill("SIGTERM");
    const timer = setTimeout(() => child.kill("SIGKILL"), 3000);
    await exited;
    clearTimeout(timer);
  }
  try {
    rmSync(root, { recursive: true, force: true, maxRetries: 10, retryDelay: 200 });
  } catch (e) {
    console.warn(`could not remove ${root}: ${e.message}`);
  }
});

/** A second launch of the binary: it hands over to the running app and ends with status 0. */
async function secondLaunch(env) {
  const second = start(APP, [], env);
  const code = await new Promise((resolve) => second.once("exit", resolve));
  assert.equal(code, 0, "the second launch hands over and ends");
}

test("started in the tray, opened by a second launch, closed to the tray with the web view gone, opened again", async () => {
  const env = appEnv("tray", bus.address);
  const app = start(APP, ["--minimized"], env);
  await waitFor("the app open (in the tray)", async () => logLines(env.XDG_DATA_HOME).some((l) => /app opened/.test(l)), 30_000, 100);
  assert.ok(logLines(env.XDG_DATA_HOME).some((l) => /vibelife starting.*minimized=true/.test(l)), "autostart's argument was seen");
  assert.equal(uiReadyTimes(env.XDG_DATA_HOME).length, 0, "no window at a start in the tray");

  // A second launch (the desktop's launcher, say) opens the running app's window.
  await secondLaunch(env);
  await waitFor("a window with an interactive composer", async () => uiReadyTimes(env.XDG_DATA_HOME).length === 1, 30_000, 100);
  assert.ok(webProcesses(app.pid).length > 0, "the window has its web process");
  await waitFor("the window mapped", async () => windowsOf(app.pid).length > 0, 10_000, 100);

  // The close button with "keep running in the tray" chosen: the window and its web process
  // go, the app stays.
  await closeToTray(app.pid, waitFor);
  assert.equal(windowsOf(app.pid).length, 0, "no window left");
  assert.ok(logLines(env.XDG_DATA_HOME).some((l) => /running in the tray/.test(l)), "the log says it went to the tray");
  assert.ok(alive(app.pid), "the app runs on in the tray");
  assert.equal(app.exitCode, null);

  // Open again: a new window, a new web process, an interactive composer.
  await secondLaunch(env);
  await waitFor("the window again, composer interactive", async () => uiReadyTimes(env.XDG_DATA_HOME).length === 2, 30_000, 100);
  assert.ok(webProcesses(app.pid).length > 0, "the new window has its web process");
  assert.ok(alive(app.pid));

  // Logging out sends SIGTERM: the app quits as the tray's Quit does, and its database
  // records a clean end (else every start after a logout would take the last one for a crash).
  const exited = new Promise((resolve) => app.once("exit", (code, signal) => resolve({ code, signal })));
  app.kill("SIGTERM");
  assert.deepEqual(await exited, { code: 0, signal: null }, "quit, not killed");
  assert.ok(logLines(env.XDG_DATA_HOME).some((l) => /quitting on a signal/.test(l)), "the log says why it quit");
  assert.ok(existsSync(join(env.VIBE_DATA_DIR, "vibe.db")));
  assert.ok(!existsSync(join(env.VIBE_DATA_DIR, "vibe.db.dirty")), "the database's session was closed at exit");
});

test("the start-at-login switch writes and removes the XDG autostart entry", async () => {
  // tauri-driver starts the app itself; no session bus, so single-instance stays out of it.
  const env = appEnv("autostart", "disabled:");
  const driver = start(TAURI_DRIVER, await driverArgs(PORT, WEBKIT_DRIVER), env);
  const base = `http://127.0.0.1:${PORT}`;
  await waitFor("tauri-driver /status", async () => (await fetch(base + "/status")).ok, 20_000, 200);
  const app = await Session.start(base, { browserName: "wry", "tauri:options": { application: APP } });
  const dir = join(env.HOME, ".config", "autostart");
  const entries = () => (existsSync(dir) ? readdirSync(dir).filter((f) => f.endsWith(".desktop")) : []);
  try {
    await (await app.byTestId("nav-settings")).click();
    const selector = "[data-testid=settings-autostart]";
    await app.waitFind(`${selector}:not([disabled])`);
    assert.equal(await (await app.find(selector)).property("checked"), false, "off by default");
    assert.deepEqual(entries(), []);
    // Above the sticky Save bar first, or the click lands on the bar.
    await app.execute(`document.querySelector('${selector}').scrollIntoView({ block: 'center' });`);
    await (await app.find(selector)).click();
    await waitFor("the autostart entry written", async () => entries().length === 1, 10_000, 100);
    const entry = readFileSync(join(dir, entries()[0]), "utf8");
    assert.match(entry, /^Exec=.*vibelife.* --minimized/m, entry);
    assert.equal(await (await app.find(selector)).property("checked"), true);
    await (await app.find(selector)).click();
    await waitFor("the autostart entry removed", async () => entries().length === 0, 10_000, 100);
  } finally {
    await app.close();
    driver.kill("SIGTERM");
  }
});
