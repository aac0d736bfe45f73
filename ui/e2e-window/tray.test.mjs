// The tray in a real window (run by scripts/test-app-window.sh under Xvfb, after
// window.test.mjs): the built `vibelife` binary started as autostart starts it (`--minimized`:
// the tray, no window), its window opened by a second launch (tauri-plugin-single-instance over
// a private D-Bus session bus: the second process hands over and ends), closed with "keep
// running in the tray" chosen — the app process lives on and its WebKit web processes are gone
// — and opened again to an interactive composer; a SIGTERM (a logout) then quits it with the
// database's session closed. Then the Settings switch "start at login"
// writes and removes the XDG autostart entry (under the test's own HOME), through
// tauri-driver + WebKitWebDriver. Last, a due protocol reminder's desktop notification (shown by
// dunst, a real notification daemon, on the private session bus): its "answer now" action turns
// the open window to the question, and makes the window again, at the question, when the app
// sits in the tray.
//
// Environment: VIBELIFE_APP, TAURI_DRIVER, WEBKIT_DRIVER, TAURI_DRIVER_PORT (this file uses the
// next port), VIBE_CLI (the `vibe` binary: a protocol run started as a person would), DISPLAY
// (Xvfb).

import assert from "node:assert/strict";
import { execFileSync, spawn } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, test } from "node:test";
import { alive, closeToTray, logLines, sessionBus, tree, uiReadyTimes, webProcesses, windowsOf } from "./processes.mjs";
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
  // A configured app (no first run, no passphrase, updates answered: no question, no request),
  // which keeps running in the tray when its window is closed; the model is never called here.
  writeFileSync(
    join(env.VIBE_DATA_DIR, "settings.json"),
    JSON.stringify({ llm: { base_url: "http://127.0.0.1:9/v1", model: "none" }, storage: { encryption: "none" }, preferences: { on_close: "tray", updates: "off" } }),
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
  if (process.env.WINDOW_TEST_KEEP) {
    console.log(`kept the test's folders: ${root}`);
    return;
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

/** A skill of the person's own with a one-step protocol whose reminder is due from midnight on
 * (`question`), and its run started with `vibe protocol start`. */
function dueReminder(env, question) {
  const skill = join(env.VIBE_DATA_DIR, "skills", "evening");
  mkdirSync(join(skill, "protocols"), { recursive: true });
  writeFileSync(
    join(skill, "SKILL.md"),
    "---\nname: evening\ndescription: 晚间觉察：留意一天里的自己。An evening check.\n---\n\n# evening\n\n陪用户留意这一天里的自己。用用户使用的语言回答。\n",
  );
  writeFileSync(
    join(skill, "protocols", "evening.yaml"),
    [
      "id: evening",
      "version: 1",
      "title: 晚间觉察",
      "title_en: Evening check",
      "description: 一步：留意一天里的自己。",
      "estimated_time: 约 1 分钟",
      "steps:",
      "  - id: notice",
      "    title: 留意自己",
      "    title_en: Notice yourself",
      "    phase: notice",
      "    goal: 留意这一天里的自己。",
      "    opening: 今天你留意到自己什么？",
      "    fields:",
      "      - {key: notes, type: text, description: 一天里的观察}",
      "    done_when: 至少一条观察。",
      "    reminders:",
      `      - {at: "00:00", question: ${question}}`,
      "",
    ].join("\n"),
  );
  const cli = (args) => JSON.parse(execFileSync(need("VIBE_CLI"), ["--json", ...args], { env, encoding: "utf8" }));
  cli(["protocol", "start", "evening"]);
  const due = cli(["protocol", "reminders", "--due"]).reminders;
  assert.equal(due.length, 1, JSON.stringify(due));
  return due[0];
}

/** dunst's own command line, on the test's session bus. */
const dunstctl = (env, args) => execFileSync("dunstctl", args, { env, encoding: "utf8" }).trim();

/** The app `tauri-driver` started over `env`'s data folder. */
function appPidOf(env) {
  for (const d of readdirSync("/proc")) {
    if (!/^\d+$/.test(d)) continue;
    try {
      const argv0 = readFileSync(`/proc/${d}/cmdline`, "utf8").split("\0")[0];
      if (argv0 === APP && readFileSync(`/proc/${d}/environ`, "utf8").includes(env.VIBE_DATA_DIR)) return Number(d);
    } catch {
      /* gone or not ours */
    }
  }
  return null;
}

test("a reminder's notification: its action opens the question, in the open window and from the tray", async () => {
  const env = appEnv("notify", bus.address);
  const first = dueReminder(env, "这一刻你在逃避什么？");
  // A real notification daemon on the session bus (the desktop's, in a person's session).
  start("dunst", [], env);
  await waitFor("dunst on the session bus", async () => dunstctl(env, ["is-paused"]) === "false", 10_000, 200);

  const driver = start(TAURI_DRIVER, await driverArgs(PORT, WEBKIT_DRIVER), env);
  const base = `http://127.0.0.1:${PORT}`;
  await waitFor("tauri-driver /status", async () => (await fetch(base + "/status")).ok, 20_000, 200);
  const app = await Session.start(base, { browserName: "wry", "tauri:options": { application: APP } });
  try {
    await app.byTestId("nav-today");
    // The reminder check at start notifies it: dunst shows it.
    await waitFor("the reminder notified", async () => logLines(env.XDG_DATA_HOME).some((l) => /reminder notified/.test(l)), 30_000, 200);
    await waitFor("the notification on screen", async () => Number(dunstctl(env, ["count", "displayed"])) === 1, 10_000, 200);
    // Its action ("answer now", or a click on it): the open window turns to the question.
    dunstctl(env, ["action", "0"]);
    const question = await app.waitFind("[data-testid=reminder-question]", 15_000);
    assert.match(await question.text(), /这一刻你在逃避什么/);
    assert.ok(await app.find("[data-testid=composer]"), "the composer to answer in");
    assert.ok(logLines(env.XDG_DATA_HOME).some((l) => /reminder notification answered/.test(l)));

    // In the tray: the window is gone, a new reminder is notified, and its action makes the
    // window again, at that question.
    const pid = appPidOf(env);
    assert.ok(pid, "the app's process");
    await closeToTray(pid, waitFor);
    assert.ok(alive(pid), "the app runs on in the tray");
    execFileSync(need("VIBE_CLI"), ["protocol", "cancel", first.protocol_run_id], { env });
    const second = dueReminder(env, "此刻你最想靠近什么？");
    assert.notEqual(second.protocol_run_id, first.protocol_run_id);
    await waitFor("the second reminder notified (the check runs every minute)", async () => logLines(env.XDG_DATA_HOME).filter((l) => /reminder notified/.test(l)).length === 2, 90_000, 500);
    await waitFor("the second notification on screen", async () => Number(dunstctl(env, ["count", "displayed"])) === 1, 10_000, 200);
    const windowsBefore = uiReadyTimes(env.XDG_DATA_HOME).length;
    dunstctl(env, ["action", "0"]);
    await waitFor("a window again", async () => windowsOf(pid).length > 0 && webProcesses(pid).length > 0, 30_000, 200);
    await waitFor("its UI ready", async () => uiReadyTimes(env.XDG_DATA_HOME).length > windowsBefore, 30_000, 200);
    // The new window is the automation session's too: it shows the second question.
    const handles = await app.windowHandles();
    await app.switchToWindow(handles.at(-1));
    const again = await app.waitFind("[data-testid=reminder-question]", 15_000);
    assert.match(await again.text(), /此刻你最想靠近什么/);
    assert.ok(tree(pid).length > 0);
  } finally {
    await app.close().catch(() => undefined);
    driver.kill("SIGTERM");
  }
});
