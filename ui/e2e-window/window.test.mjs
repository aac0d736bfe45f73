// The desktop app in a real window (run by scripts/test-app-window.sh under Xvfb): the built
// `vibelife` binary, driven through tauri-driver + WebKitWebDriver, talking to `fake-llm` (a
// fake OpenAI-compatible server on 127.0.0.1) with a temporary data dir. It goes through first
// run, Settings (which also calls Tauri's app API: proof that capabilities/ reached the build),
// sends a message and reads the streamed reply, checks the message in the SQLite file, restarts
// the app and finds the conversation again; its log holds neither what was said nor the
// passphrase. Settings → Models downloads a model from `fake-files` (a file server on
// 127.0.0.1, through a hub-style redirect), verifies and uses it. Settings → Connections adds
// our own MCP server, and a conversation uses its tool after the approval. Screenshots go to $SHOTS_DIR.
//
// Environment: VIBELIFE_APP (absolute path of the binary), FAKE_LLM and FAKE_FILES (their
// binaries), TAURI_DRIVER,
// WEBKIT_DRIVER (WebKitWebDriver), SHOTS_DIR, and DISPLAY (Xvfb).

import assert from "node:assert/strict";
import { spawn, execFileSync } from "node:child_process";
import { createHash, randomBytes } from "node:crypto";
import { existsSync, mkdtempSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { after, before, test } from "node:test";
import { driverArgs, ENTER, Session, waitFor } from "./webdriver.mjs";

const APP = need("VIBELIFE_APP");
const FAKE_LLM = need("FAKE_LLM");
const FAKE_FILES = need("FAKE_FILES");
const VIBE = need("VIBE_CLI");
const TAURI_DRIVER = need("TAURI_DRIVER");
const WEBKIT_DRIVER = process.env.WEBKIT_DRIVER ?? "/usr/bin/WebKitWebDriver";
const SHOTS = need("SHOTS_DIR");
const PORT = Number(process.env.TAURI_DRIVER_PORT ?? 4444);
const DRIVER = `http://127.0.0.1:${PORT}`;
const VERSION = JSON.parse(readFileSync(new URL("../package.json", import.meta.url), "utf8")).version;

const QUESTION = "最近工作压力很大，晚上睡不好，怎么办？";
const PASSPHRASE = "window test passphrase";
const REPLY = [
  "## 先照顾好自己",
  "",
  "听起来你最近真的很累。**压力大、睡不好**是身体在提醒你需要休息。可以试试：",
  "",
  "1. 睡前一小时放下手机，给大脑一点安静的时间；",
  "2. 把明天要做的事写在纸上，写下来就不用一直记着；",
  "3. 白天抽十分钟散散步，晒晒太阳。",
  "",
  "Take it one step at a time — 你已经在认真面对它了。",
].join("\n");

function need(name) {
  const v = process.env[name];
  if (!v) throw new Error(`${name} is not set (run scripts/test-app-window.sh)`);
  return v;
}

const children = [];
let dataDir;
let llmUrl;
/** The id of the model `fake-files` serves, in the catalogue VIBE_MODELS_CATALOG names. */
const MODEL_ID = "tiny-window-q8_0";

/** Starts a child process that is killed (by its pid) when the tests end. */
function start(cmd, args, env) {
  const child = spawn(cmd, args, { env: { ...process.env, ...env }, stdio: ["ignore", "pipe", "pipe"] });
  children.push(child);
  child.stderr.on("data", (d) => process.env.WINDOW_TEST_VERBOSE && process.stderr.write(d));
  return child;
}

before(async () => {
  dataDir = mkdtempSync(join(tmpdir(), "vibelife-window-"));
  mkdirSync(SHOTS, { recursive: true });
  const llm = start(FAKE_LLM, ["--reply", REPLY, "--chunk", "3", "--delay-ms", "45", "--model", "fake-chat"]);
  llmUrl = await new Promise((resolve, reject) => {
    llm.stdout.on("data", (d) => {
      const m = /listening on (\S+)/.exec(String(d));
      if (m) resolve(m[1]);
    });
    llm.on("exit", (code) => reject(new Error(`fake-llm exited with ${code}`)));
  });
  const catalog = await serveModel();
  // The app inherits tauri-driver's environment: its own data dir, and XDG dirs inside the
  // temporary folder so logs and WebKit's caches stay out of the real home.
  start(TAURI_DRIVER, await driverArgs(PORT, WEBKIT_DRIVER), {
    VIBE_DATA_DIR: join(dataDir, "data"),
    XDG_DATA_HOME: join(dataDir, "xdg-data"),
    XDG_CACHE_HOME: join(dataDir, "xdg-cache"),
    XDG_CONFIG_HOME: join(dataDir, "xdg-config"),
    DBUS_SESSION_BUS_ADDRESS: "disabled:",
    // No keychain here (no D-Bus session): the app asks for a passphrase (docs/privacy.md).
    VIBE_LLM_BASE_URL: "",
    VIBE_LLM_MODEL: "",
    VIBE_LLM_API_KEY: "",
    VIBE_MODELS_CATALOG: catalog,
  });
  await waitFor("tauri-driver /status", async () => (await fetch(`${DRIVER}/status`)).ok, 20_000, 200);
});

after(async () => {
  for (const child of children) {
    if (child.exitCode !== null || child.signalCode !== null) continue;
    const exited = new Promise((resolve) => child.once("exit", resolve));
    child.kill("SIGTERM");
    const timer = setTimeout(() => child.kill("SIGKILL"), 3000);
    await exited;
    clearTimeout(timer);
    child.stdout?.destroy();
    child.stderr?.destroy();
  }
  // WebKit's helper processes (children of WebKitWebDriver, not ours) may still be writing
  // their caches for a moment: removing the temporary folder is best effort.
  if (process.env.WINDOW_TEST_KEEP) {
    console.warn(`kept ${dataDir} (WINDOW_TEST_KEEP)`);
    return;
  }
  try {
    if (dataDir) rmSync(dataDir, { recursive: true, force: true, maxRetries: 10, retryDelay: 200 });
  } catch (e) {
    console.warn(`could not remove ${dataDir}: ${e.message}`);
  }
});

/** A small file that starts like a GGUF model, served by `fake-files` behind a redirect (as
 * a hub sends to its CDN); returns the path of a one-entry catalogue that points at it. */
async function serveModel() {
  const bytes = Buffer.concat([Buffer.from("GGUF"), randomBytes(3 * 1024 * 1024)]);
  const file = join(dataDir, "tiny.gguf");
  writeFileSync(file, bytes);
  const files = start(FAKE_FILES, ["--file", `/cdn/tiny.gguf=${file}`, "--redirect", "/hub/tiny.gguf=/cdn/tiny.gguf"]);
  const url = await new Promise((resolve, reject) => {
    files.stdout.on("data", (d) => {
      const m = /listening on (\S+)/.exec(String(d));
      if (m) resolve(m[1]);
    });
    files.on("exit", (code) => reject(new Error(`fake-files exited with ${code}`)));
  });
  const entry = {
    id: MODEL_ID,
    name: "Tiny Window Model",
    parameters: "1M",
    quantization: "Q8_0",
    url: `${url}/hub/tiny.gguf`,
    size_bytes: bytes.length,
    sha256: createHash("sha256").update(bytes).digest("hex"),
    license: "MIT",
    context_length: 256,
    ram_bytes: 16 * 1024 * 1024,
  };
  const catalog = join(dataDir, "catalog.json");
  writeFileSync(catalog, JSON.stringify({ models: [entry] }));
  return catalog;
}

const openApp = () => Session.start(DRIVER, { browserName: "wry", "tauri:options": { application: APP } });

/** Saves a screenshot once the window has painted: a DOM that is ready can still show a blank
 * window for a frame or two, and a blank screenshot is a failing screen. */
async function shot(session, name) {
  const png = await waitFor(`${name} to show more than a blank window`, async () => {
    await session.executeAsync(
      "const done = arguments[arguments.length - 1]; requestAnimationFrame(() => requestAnimationFrame(() => done(null)));",
    );
    const png = windowPng();
    assert.equal(png.subarray(1, 4).toString(), "PNG");
    return colors(png) > 16 ? png : null;
  });
  writeFileSync(join(SHOTS, name), png);
}

/**
 * The app's window as the X server shows it (ImageMagick's `import` of the window titled
 * VibeLife): what a person sees, taken outside WebKit, so it works whatever WebKit's
 * compositing mode (WebKitWebDriver's own screenshot hangs with compositing off).
 */
function windowPng() {
  const tree = execFileSync("xwininfo", ["-root", "-tree"]).toString();
  const ids = [...tree.matchAll(/^\s+(0x[0-9a-f]+) "VibeLife": .*?(\d+)x(\d+)\+/gm)]
    .filter((m) => Number(m[2]) > 200 && Number(m[3]) > 200)
    .map((m) => m[1]);
  assert.ok(ids.length > 0, `no VibeLife window on ${process.env.DISPLAY}:\n${tree}`);
  return execFileSync("import", ["-window", ids[0], "png:-"], { maxBuffer: 64 << 20 });
}

/** How many distinct colours a PNG holds (ImageMagick, installed by scripts/app-env.sh). */
function colors(png) {
  return Number(execFileSync("identify", ["-format", "%k", "png:-"], { input: png }).toString().trim());
}

async function testId(session, id) {
  return session.byTestId(id);
}

/** `vibe --json ARGS` over the app's data dir: a second reader of its encrypted database (the
 * `vibe` CLI, with the same passphrase), not the app. */
function vibe(...args) {
  const out = execFileSync(VIBE, ["--data-dir", join(dataDir, "data"), "--json", ...args], {
    env: { ...process.env, VIBE_DB_PASSPHRASE: PASSPHRASE, XDG_DATA_HOME: join(dataDir, "xdg-data") },
  });
  return JSON.parse(String(out));
}

/** The line of the check-in made on Today after the restart. */
const CHECKIN_NOTE = "走了很久的路";

/** The messages of the only conversation in the database, as [role, content] pairs. */
function storedMessages() {
  const { conversations } = vibe("conversations", "list");
  assert.equal(conversations.length, 1);
  return vibe("conversations", "show", conversations[0].id).messages.map((m) => [m.role, m.content]);
}

/** Whether `text` appears in the raw bytes of the database file (it must not: encrypted). */
function inRawFile(text) {
  return readFileSync(join(dataDir, "data", "vibe.db")).includes(Buffer.from(text));
}

test("a passphrase chosen, first run, settings, a streamed reply stored encrypted, and the conversation after a restart and an unlock", async () => {
  const app = await openApp();
  try {
    // No keychain to hold a key: a new data folder chooses a passphrase first.
    await testId(app, "unlock");
    await (await testId(app, "unlock-passphrase")).type(PASSPHRASE);
    await (await testId(app, "unlock-passphrase-again")).type(PASSPHRASE);
    await shot(app, "unlock-choose.png");
    await (await testId(app, "unlock-submit")).click();

    // First run: no model chosen yet.
    await testId(app, "first-run");
    await waitFor("first-run detection", async () => (await app.findAll(".none-found, [data-testid=first-run-server]")).length > 0);
    // Tall enough for the whole first-run page (the update question's buttons included).
    await app.setWindowRect(1100, 1150);
    await shot(app, "first-run.png");
    await app.setWindowRect(1100, 760);
    // The update question: "Don't look" (no request from this test); the answer is saved at
    // once, so the app's pages do not ask it again.
    await (await testId(app, "updates-off")).click();
    await testId(app, "updates-chosen");
    const updatesChoice = () => JSON.parse(readFileSync(join(dataDir, "data", "settings.json"), "utf8")).preferences?.updates;
    await waitFor("the update choice in settings.json", async () => updatesChoice() === "off");
    await (await testId(app, "first-run-settings")).click();

    // Settings: point at the fake server, choose Chinese, test, save.
    const baseUrl = await testId(app, "settings-base-url");
    await baseUrl.clear();
    await baseUrl.type(llmUrl);
    const model = await testId(app, "settings-model");
    await model.clear();
    await model.type("fake-chat");
    await (await app.find('select[data-testid="settings-language"] option[value="zh-CN"]')).click();
    await (await testId(app, "settings-test")).click();
    const result = await testId(app, "settings-test-result");
    await waitFor("a successful connection test", async () => ((await result.attribute("class")) ?? "").split(" ").includes("toast-ok"));
    await (await testId(app, "settings-save")).click();
    await waitFor("saved", async () => (await (await testId(app, "nav-chat")).text()) === "对话");
    // Tauri's app API answered: the capability file reached the build.
    assert.equal(await (await testId(app, "app-version")).text(), `VibeLife ${VERSION}`);
    // The reminder settings: quiet hours turned on are written through the core.
    const reminders = await testId(app, "settings-reminders");
    assert.match(await reminders.text(), /用系统通知显示协议提醒/);
    assert.equal(await (await testId(app, "settings-reminders-notify")).property("checked"), true);
    // Above the sticky Save bar first, or the click lands on the bar.
    await app.execute("document.querySelector('[data-testid=settings-reminders]').scrollIntoView({ block: 'center' });");
    await (await testId(app, "settings-quiet-hours")).click();
    await waitFor("quiet hours saved", async () => (await app.findAll('[data-testid="settings-quiet-start"]')).length > 0);
    const written = () => JSON.parse(readFileSync(join(dataDir, "data", "settings.json"), "utf8"));
    await waitFor("quiet hours in settings.json", async () => written().preferences?.reminders?.quiet_hours?.start === "22:00");
    // The top of the page (its heading, the endpoint) in a tall window, the Save bar on the
    // window's bottom edge with nothing showing below it; the Models section has its own shot.
    await app.setWindowRect(1100, 1150);
    await app.execute("document.querySelector('form.settings').scrollTop = 0;");
    await waitFor("Settings from its heading down to the Save bar", async () =>
      app.execute(
        "const h = document.querySelector('.settings h1').getBoundingClientRect(); const a = document.querySelector('.settings-actions').getBoundingClientRect(); const f = document.querySelector('form.settings').getBoundingClientRect(); return h.top >= f.top && Math.abs(a.bottom - f.bottom) <= 1 && a.bottom <= window.innerHeight;",
      ),
    );
    await shot(app, "settings.png");
    await app.setWindowRect(1100, 760);
    // The Reminders section from its heading; what follows it may pass under the Save bar.
    await app.execute("document.querySelector('[data-testid=settings-reminders]').scrollIntoView({ block: 'start' });");
    await shot(app, "reminder-settings.png");

    // Chat: send, watch it stream, read the whole reply.
    await (await testId(app, "nav-chat")).click();
    const composer = await testId(app, "composer");
    await composer.type(QUESTION);
    await composer.type(ENTER);
    const reply = await testId(app, "msg-assistant");
    await waitFor("the reply streaming", async () => (await app.findAll('[data-testid="stop"]')).length > 0 && (await reply.text()).includes("先照顾好自己"));
    await waitFor("the reply past its first lines", async () => (await reply.text()).includes("睡前一小时"));
    const partial = await reply.text();
    await shot(app, "chat-streaming.png");
    assert.ok(!partial.includes("Take it one step"), "the screenshot was taken mid-stream");
    await waitFor("the reply complete", async () => (await reply.text()).includes("Take it one step at a time"), 30_000);
    await waitFor("the run finished", async () => (await app.findAll('[data-testid="send"]')).length > 0);
    assert.equal(await (await testId(app, "msg-user")).text(), QUESTION);
    await shot(app, "chat-done.png");
  } finally {
    await app.close();
  }

  // The database holds the exchange, and its file on disk does not show it.
  const rows = storedMessages();
  assert.ok(!inRawFile(QUESTION), "the question is readable in the database file");
  assert.deepEqual(rows.map((r) => r[0]), ["user", "assistant"]);
  assert.equal(rows[0][1], QUESTION);
  assert.equal(rows[1][1], REPLY);

  // Restart: no first run any more, the conversation is listed and opens with both messages.
  const again = await openApp();
  try {
    // The folder is locked now: a wrong passphrase is refused, the right one opens it.
    await (await testId(again, "unlock-passphrase")).type("not the passphrase");
    await (await testId(again, "unlock-submit")).click();
    await waitFor("the wrong passphrase refused", async () => (await again.findAll('[data-testid="unlock"] [role="alert"]')).length > 0);
    const field = await testId(again, "unlock-passphrase");
    await field.clear();
    await field.type(PASSPHRASE);
    await (await testId(again, "unlock-submit")).click();
    // The app opens on Today: a check-in there (it is in `vibe journal list` below).
    await again.waitFind('[data-testid="today"]');
    await (await testId(again, "checkin-mood-4")).click();
    await (await testId(again, "checkin-note")).type(CHECKIN_NOTE);
    await (await testId(again, "checkin-save")).click();
    await waitFor("the check-in on Today", async () => (await (await testId(again, "today-checkins")).text()).includes(CHECKIN_NOTE));
    // Insights draws it: a point on the mood chart, and the chart's table (for screen
    // readers) has today's row at 4 with one check-in.
    await (await testId(again, "nav-insights")).click();
    await again.waitFind('[data-testid="insights"][data-ready="true"]', 20_000);
    await waitFor("the mood chart drawn", async () => Number(await (await again.find(".mood-canvas")).attribute("data-drawn")) > 0);
    const rows = await again.execute(
      "return [...document.querySelectorAll('[data-testid=insights-mood-chart] tbody tr')].map((r) => [...r.cells].map((c) => c.textContent));",
    );
    assert.ok(rows.some((r) => r[1] === "4.0" && r[3] === "1"), `today's check-in not in the chart's table: ${JSON.stringify(rows)}`);
    await shot(again, "insights-window.png");
    // The conversations are in the chat.
    await (await testId(again, "nav-chat")).click();
    const item = await again.waitFind('[data-testid="conversation-item"] button.title');
    assert.equal((await again.findAll('[data-testid="first-run"]')).length, 0);
    await item.click();
    await waitFor("the stored user message", async () => (await (await testId(again, "msg-user")).text()) === QUESTION);
    assert.ok((await (await testId(again, "msg-assistant")).text()).includes("Take it one step at a time"));
  } finally {
    await again.close();
  }

  // The check-in made on Today is a journal entry, as the command line lists it.
  const { entries } = vibe("journal", "list");
  const checkin = entries.find((e) => e.source === "checkin");
  assert.ok(checkin, `no check-in in ${JSON.stringify(entries)}`);
  assert.equal(checkin.mood, 4);
  assert.equal(checkin.text, CHECKIN_NOTE);

  // The app's log (default level) tells what happened without what was said or typed.
  const logs = appLogs();
  assert.match(logs, /vibelife starting/, "the log holds the app's start");
  assert.match(logs, /app opened/, "the log holds the data folder's opening");
  for (const secret of [QUESTION, "先照顾好自己", "Take it one step", PASSPHRASE, "not the passphrase"]) {
    assert.ok(!logs.includes(secret), `the app's log holds ${JSON.stringify(secret)}`);
  }
});

/** Every file of the app's log folder ($XDG_DATA_HOME/<identifier>/logs on Linux), joined. */
function appLogs() {
  const dir = join(dataDir, "xdg-data", "app.vibelife.desktop", "logs");
  const files = readdirSync(dir).filter((f) => f.endsWith(".log"));
  assert.ok(files.length > 0, `no log file in ${dir}`);
  return files.map((f) => readFileSync(join(dir, f), "utf8")).join("\n");
}

/** What the person answers at each of dankoe's six steps, as the model files it. */
const STEP_DATA = [
  { dull_dissatisfaction: "每天都很累", top_complaints: ["加班", "没时间运动", "刷手机"], revealed_wants: "安全感" },
  { tuesday_in_5_years: "还在同一个工位", tuesday_in_10_years: "身体垮了", cost_of_safe_life: "错过了自己", identity_to_give_up: "老好人" },
  { tuesday_in_3_years: "早上写作", identity_statement: "我是那种每天创作的人", this_week_action: "写一篇文章" },
  { avoidances: ["写作", "运动"] },
  { why_stuck: "害怕失败", real_enemy: "完美主义", anti_vision_sentence: "麻木地过一生", vision_sentence: "自由地创作" },
  { one_year_goal: "出版一本书", one_month_project: "写完三章", daily_levers: ["写 500 字"], constraints: ["睡够 7 小时"] },
];
const OPENING = "我想彻底改变现在的生活";

/** The fake model's part in a whole dankoe run (fake-llm --script): activate lifecoach and
 * invite, ask the first question after Start, then file each step's answer and go on. */
function protocolScript() {
  const entries = [
    { when: OPENING, tool_calls: [{ name: "use_skill", arguments: { skill: "lifecoach" } }] },
    { when: OPENING, tool_calls: [{ name: "show_protocol_invitation", arguments: { protocol_id: "dankoe" } }] },
    { when: OPENING, text: "要不要试试一日人生重置？" },
    { when: "开始", text: "我们从一个诚实的问题开始：最近最让你不满意的是什么？" },
  ];
  STEP_DATA.forEach((data, i) => {
    const when = `第 ${i + 1} 步`;
    const call = { name: "advance_protocol_step", arguments: { step_data: data, step_summary: `${when}说清楚了` } };
    entries.push({ when, tool_calls: [call] }, { when, text: i < 5 ? `记下了，我们进入第 ${i + 2} 步。` : "这一天的重置完成了。" });
  });
  return entries;
}

/** Unlocks the app with the test passphrase and points Settings at the model server `url`
 * (the page stays on Settings). */
async function unlockWithModel(app, url) {
  await (await testId(app, "unlock-passphrase")).type(PASSPHRASE);
  await (await testId(app, "unlock-submit")).click();
  await (await testId(app, "nav-settings")).click();
  const baseUrl = await testId(app, "settings-base-url");
  await baseUrl.clear();
  await baseUrl.type(url);
  await (await testId(app, "settings-save")).click();
  await waitFor("saved", async () => (await app.findAll(".settings-status .toast-ok")).length > 0);
}

/** Starts `fake-llm` with `args`; resolves with its base URL. */
function startFakeLlm(args) {
  const llm = start(FAKE_LLM, args);
  return new Promise((resolve, reject) => {
    llm.stdout.on("data", (d) => {
      const m = /listening on (\S+)/.exec(String(d));
      if (m) resolve(m[1]);
    });
    llm.on("exit", (code) => reject(new Error(`fake-llm exited with ${code}`)));
  });
}

/** Saves through the system's save dialog as a person would: waits for the GTK dialog, types
 * `path` into its name field and presses Enter (xdotool, real key events on the X server). */
async function saveDialogAs(path) {
  const id = await waitFor("the save dialog", async () => {
    try {
      return execFileSync("xdotool", ["search", "--onlyvisible", "--name", "^Save"]).toString().trim().split("\n")[0] || null;
    } catch {
      return null;
    }
  }, 20_000, 200);
  execFileSync("xdotool", ["windowfocus", "--sync", id]);
  execFileSync("xdotool", ["key", "--clearmodifiers", "ctrl+a"]);
  execFileSync("xdotool", ["type", "--delay", "5", path]);
  execFileSync("xdotool", ["key", "Return"]);
}

test("a whole dankoe run in the window: invitation, Start, six steps on the bar, completion, reports saved, Me and Skills", async () => {
  const url = await startFakeLlm(["--script", writeScript(protocolScript()), "--reply", "好的。", "--chunk", "4", "--delay-ms", "10", "--model", "fake-chat"]);
  // A skill folder with a mistake, for the Skills screen.
  mkdirSync(join(dataDir, "data", "skills", "broken"), { recursive: true });
  writeFileSync(join(dataDir, "data", "skills", "broken", "SKILL.md"), "---\nname: broken\ndescription: [unclosed\n---\n# Broken\n");
  const app = await openApp();
  try {
    await unlockWithModel(app, url);

    await (await testId(app, "nav-chat")).click();
    await (await testId(app, "new-conversation")).click();
    const composer = await testId(app, "composer");
    await composer.type(OPENING);
    await composer.type(ENTER);
    const start = await testId(app, "protocol-start");
    await waitFor("the invitation's buttons", async () => (await start.property("disabled")) === false, 30_000);
    await start.click();
    const bar = await testId(app, "protocol-progress");
    await waitFor("step 1 on the bar", async () => (await bar.attribute("aria-valuenow")) === "1", 30_000);
    await waitFor("the first question at once", async () => (await lastText(app, "msg-assistant")).includes("最近最让你不满意"), 30_000);
    for (let step = 1; step <= 6; step++) {
      await waitFor("the composer free", async () => (await app.findAll('[data-testid="send"]')).length > 0, 30_000);
      const box = await testId(app, "composer");
      await box.type(`第 ${step} 步：${Object.values(STEP_DATA[step - 1]).flat().join("，")}`);
      await box.type(ENTER);
      if (step < 6) {
        await waitFor(`step ${step + 1} on the bar`, async () => (await bar.attribute("aria-valuenow")) === String(step + 1), 30_000);
        assert.equal(await bar.attribute("aria-valuemax"), "6");
        if (step === 3) await shot(app, "protocol-progress.png");
      }
    }
    const done = await testId(app, "protocol-complete");
    await waitFor("the run finished", async () => (await app.findAll('[data-testid="send"]')).length > 0, 30_000);
    await shot(app, "protocol-complete.png");

    // Reports through the system's save dialog, holding what each step collected.
    const reports = join(dataDir, "reports");
    mkdirSync(reports, { recursive: true });
    for (const format of ["md", "pdf"]) {
      await (await testId(app, `export-${format}`)).click();
      const file = join(reports, `dankoe.${format}`);
      await saveDialogAs(file);
      await waitFor(`${format} saved`, async () => existsSync(file) && statSync(file).size > 0, 20_000);
      const text = format === "md" ? readFileSync(file, "utf8") : execFileSync("pdftotext", [file, "-"]).toString();
      for (const value of ["每天都很累", "老好人", "我是那种每天创作的人", "完美主义", "出版一本书"]) {
        assert.ok(text.includes(value), `the ${format} report holds ${value}`);
      }
    }
    // The completion card shows the person's own answers (get_protocol_run's `answers`).
    await waitFor("the answers on the completion card", async () => (await done.text()).includes("每天都很累"), 20_000);

    // Me: the dashboard the completion filled in.
    await (await testId(app, "nav-me")).click();
    await waitFor("the dashboard", async () => (await (await app.find("body")).text()).includes("出版一本书"), 20_000);
    await shot(app, "me-dashboard.png");

    // Skills: the folder with a mistake shows it, with where.
    await (await testId(app, "nav-skills")).click();
    const problem = await testId(app, "skill-problem");
    assert.match(await problem.text(), /SKILL\.md:\d+:\d+/);
    await shot(app, "skills-problem.png");
  } finally {
    await app.close();
  }
});

test("a message at risk pauses the run in the window; opened again, the conversation shows its crisis contacts and Resume in the chat goes on from the same step", async () => {
  const url = await startFakeLlm(["--script", writeScript(protocolScript()), "--reply", "我在这里，愿意听你说。", "--chunk", "4", "--delay-ms", "10", "--model", "fake-chat"]);
  const app = await openApp();
  const free = () => waitFor("the composer free", async () => (await app.findAll('[data-testid="send"]')).length > 0, 30_000);
  const say = async (text) => {
    await free();
    const box = await testId(app, "composer");
    await box.type(text);
    await box.type(ENTER);
  };
  const pausedPanes = () => app.findAll('[data-testid="protocol-paused"]');
  try {
    await unlockWithModel(app, url);
    await (await testId(app, "nav-chat")).click();
    await (await testId(app, "new-conversation")).click();
    await say(OPENING);
    const start = await testId(app, "protocol-start");
    await waitFor("the invitation's buttons", async () => (await start.property("disabled")) === false, 30_000);
    await start.click();
    const bar = await testId(app, "protocol-progress");
    await waitFor("step 1 on the bar", async () => (await bar.attribute("aria-valuenow")) === "1", 30_000);
    await say(`第 1 步：${Object.values(STEP_DATA[0]).flat().join("，")}`);
    await waitFor("step 2 on the bar", async () => (await bar.attribute("aria-valuenow")) === "2", 30_000);

    // The real screen finds the risk: the notice, and the run paused on its step.
    await say("我真的不想活了，已经想好怎么做了");
    await waitFor("the safety notice", async () => (await app.findAll('[data-testid="safety-notice"]')).length > 0, 30_000);
    await waitFor("the run paused in the chat", async () => (await pausedPanes()).length > 0, 30_000);
    await free();
    assert.equal((await app.findAll('[data-testid="protocol-progress"]')).length, 1);
    assert.equal(await (await testId(app, "protocol-progress")).attribute("aria-valuenow"), "2");
    const dankoe = (status, step) => vibe("protocol", "status").runs.some((r) => r.protocol_id === "dankoe" && r.status === status && r.step === step);
    assert.ok(dankoe("paused", 2), "the store holds the run paused on step 2");

    // Opened again later, the conversation shows the paused run where the person left it.
    await (await testId(app, "new-conversation")).click();
    await waitFor("the paused pane gone with the conversation", async () => (await pausedPanes()).length === 0, 20_000);
    assert.equal((await app.findAll('[data-testid="safety-notice"]')).length, 0, "a new conversation shows no notice");
    await (await app.findAll('[data-testid="conversation-item"]'))[0].click();
    await waitFor("the paused pane back", async () => (await pausedPanes()).length > 0, 20_000);
    // And its crisis contacts with it, open: the risky message is still the person's last.
    // China's (the language chosen in the app, the machine having no locale of its own).
    await waitFor("the crisis contacts back", async () => (await textOf(app, '[data-testid="safety-notice"]')).includes("12356"), 20_000);
    await shot(app, "protocol-paused-window.png");
    await (await testId(app, "protocol-resume-here")).click();
    await waitFor("the run active again", async () => (await pausedPanes()).length === 0, 20_000);
    await say(`第 2 步：${Object.values(STEP_DATA[1]).flat().join("，")}`);
    await waitFor("step 3 on the bar", async () => (await (await testId(app, "protocol-progress")).attribute("aria-valuenow")) === "3", 30_000);
    assert.ok(dankoe("active", 3), "the store holds the run active on step 3");
  } finally {
    await app.close();
  }
});

/** Our own MCP server (plain Node, no packages; its `ok` mode has the tool `echo`). */
const MCP_SERVER = fileURLToPath(new URL("../../crates/test-support/mcp/misbehaving.mjs", import.meta.url));
const MCP_QUESTION = "看看我的笔记里明天有什么安排";

test("Settings → Connections adds a server, and the coach uses its tool after the person allows it", async () => {
  const script = [
    { when: MCP_QUESTION, tool_calls: [{ name: "use_connection", arguments: { server: "notes" } }] },
    { when: MCP_QUESTION, tool_calls: [{ name: "mcp__notes__echo", arguments: { text: "明天九点复盘" } }] },
    { when: MCP_QUESTION, text: "你的笔记里写着：明天九点复盘。" },
  ];
  const url = await startFakeLlm(["--script", writeScript(script), "--reply", "好的。", "--chunk", "4", "--delay-ms", "10", "--model", "fake-chat"]);
  const app = await openApp();
  try {
    await unlockWithModel(app, url);

    // Added by form, as a person would: a program, its arguments one per line, the default grant.
    await app.execute("document.querySelector('[data-testid=settings-connections]').scrollIntoView({ block: 'center' });");
    await (await testId(app, "connection-add-form")).click();
    await (await testId(app, "connection-name")).type("notes");
    await (await testId(app, "connection-command")).type(process.execPath);
    const args = await testId(app, "connection-args");
    await args.type(MCP_SERVER);
    await args.type(ENTER); // a new line in the box: the next argument
    await args.type("ok");
    await (await testId(app, "connection-add-submit")).click();
    await app.waitFind('[data-testid="connection-notes"] [data-testid="connection-status"]', 20_000);
    const statusNow = () => textOf(app, '[data-testid="connection-notes"] [data-testid="connection-status"]');
    await waitFor("the server connected", async () => /Connected|已连接/.test(await statusNow()), 30_000).catch(async (e) => {
      throw new Error(`${e.message}; the card says: ${await textOf(app, '[data-testid="connection-notes"]')}`);
    });
    // The section from its heading down, nothing of the Models card above it.
    await app.execute("document.querySelector('[data-testid=settings-connections]').scrollIntoView({ block: 'start' });");
    await shot(app, "connections-window.png");
    const listed = vibe("mcp", "list");
    assert.ok(JSON.stringify(listed).includes(MCP_SERVER), `the server is in settings: ${JSON.stringify(listed)}`);

    await (await testId(app, "nav-chat")).click();
    await (await testId(app, "new-conversation")).click();
    const composer = await testId(app, "composer");
    await composer.type(MCP_QUESTION);
    await composer.type(ENTER);
    // The dialog may render again while the turn goes on: read it afresh each time (a node
    // held across a render is stale).
    await waitFor("the approval naming the connection and its tool", async () => {
      const text = await lastText(app, "approval-dialog");
      return /notes/.test(text) && /echo/.test(text);
    }, 30_000);
    await waitFor("the approval given", async () => {
      await (await testId(app, "approve")).click();
      return true;
    }, 10_000);
    await waitFor("the answer with the tool's result", async () => (await lastText(app, "msg-assistant")).includes("明天九点复盘"), 30_000);
    const activity = await lastText(app, "tool-activity");
    assert.match(activity, /notes/, `the tool line names the connection: ${activity}`);
    await shot(app, "connection-used-window.png");
  } finally {
    await app.close();
  }
});

/** Writes a fake-llm script into the temporary folder; returns its path. */
function writeScript(entries) {
  const file = join(dataDir, "script.json");
  writeFileSync(file, JSON.stringify(entries));
  return file;
}

/** The text of the last element with data-testid `id`. */
async function lastText(session, id) {
  return textOf(session, `[data-testid="${id}"]`);
}

/** The text of the last element matching `selector`, read in one step in the page: a node
 * found first and read after may have been rendered again in between (a stale element). */
async function textOf(session, selector) {
  const script = "const all = document.querySelectorAll(arguments[0]); return all.length ? all[all.length - 1].innerText : '';";
  return String(await session.execute(script, [selector]));
}

test("Settings → Models downloads a model through a redirect, verifies it and uses it", async () => {
  const app = await openApp();
  try {
    await (await testId(app, "unlock-passphrase")).type(PASSPHRASE);
    await (await testId(app, "unlock-submit")).click();
    await (await testId(app, "nav-settings")).click();
    const row = `[data-testid="model-${MODEL_ID}"]`;
    // Scrolled to the middle first, as a person would: WebDriver's own scroll stops with the
    // row on the window's bottom edge, under the sticky Save bar.
    await app.waitFind(`${row} [data-testid="model-download"]`);
    await app.execute(`document.querySelector('${row}').scrollIntoView({ block: "center" });`);
    await (await app.waitFind(`${row} [data-testid="model-download"]`)).click();
    await testId(app, "models-status");
    await waitFor("the download verified", async () => (await lastText(app, "models-status")).includes(MODEL_ID), 60_000);
    assert.match(await lastText(app, "models-status"), /downloaded and verified|已下载并校验通过/);
    const installed = join(dataDir, "data", "models", `${MODEL_ID}.gguf`);
    assert.ok(existsSync(installed), "the model is in place");
    assert.ok(!existsSync(`${installed}.part`), "no partial file is left");
    await app.execute(`document.querySelector('${row}').scrollIntoView({ block: "center" });`);
    await (await app.waitFind(`${row} [data-testid="model-use"]`)).click();
    await waitFor("in use", async () => (await app.findAll('[data-testid="model-in-use"]')).length > 0, 20_000);
    const settings = JSON.parse(readFileSync(join(dataDir, "data", "settings.json"), "utf8"));
    assert.equal(settings.llm.preset, "local");
    assert.equal(settings.llm.model, MODEL_ID);
    // The section whole in the shot: its heading at the top of the scrolled area, the sticky
    // Save bar below its last line.
    await app.execute(`document.querySelector('[data-testid="models-section"]').scrollIntoView({ block: "start" });`);
    await shot(app, "settings-models.png");
  } finally {
    await app.close();
  }
});
