// The INSTALLED desktop app in a real window (run by scripts/test-install.sh under Xvfb, after
// the packaged `vibe` wrote a conversation, a journal entry, a check-in and a protocol step into
// a passphrase-encrypted data folder): /usr/bin/vibelife, started through tauri-driver +
// WebKitWebDriver, is unlocked with the passphrase and shows that data — the protocol run on
// Today, the journal entry on Journal, the conversation (and the run's bar) in the chat. Run
// once after installing and once after upgrading the package; it writes nothing on purpose.
// Run a third time on a copy of the data folder v0.1.0 made (tests/fixtures/v0.1.0): the same
// unlock, and the app migrates it first (its two conversations, the coach's journal entry, the
// weekly review waiting on step 3).
//
// Environment: VIBELIFE_APP (/usr/bin/vibelife), TAURI_DRIVER, WEBKIT_DRIVER, TAURI_DRIVER_PORT,
// DISPLAY (Xvfb), SHOTS_DIR, INSTALL_STAGE (names the screenshot: install, upgrade),
// INSTALL_DATA_DIR (the data folder), INSTALL_HOME (a temporary folder for the app's XDG
// folders), INSTALL_LLM_URL (the loopback model server: a chosen endpoint, so no first run),
// INSTALL_EXPECT (JSON: passphrase, question, reply, journal, checkin (optional), protocol
// titles, step, total; conversations (how many, default 1)).

import assert from "node:assert/strict";
import { spawn, execFileSync } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { after, before, test } from "node:test";
import { driverArgs, Session, waitFor } from "./webdriver.mjs";

function need(name) {
  const v = process.env[name];
  if (!v) throw new Error(`${name} is not set (run scripts/test-install.sh)`);
  return v;
}

const APP = need("VIBELIFE_APP");
const TAURI_DRIVER = need("TAURI_DRIVER");
const WEBKIT_DRIVER = process.env.WEBKIT_DRIVER ?? "/usr/bin/WebKitWebDriver";
const SHOTS = need("SHOTS_DIR");
const STAGE = need("INSTALL_STAGE");
const DATA_DIR = need("INSTALL_DATA_DIR");
const HOME = need("INSTALL_HOME");
const LLM_URL = need("INSTALL_LLM_URL");
const EXPECT = JSON.parse(need("INSTALL_EXPECT"));
const PORT = Number(process.env.TAURI_DRIVER_PORT ?? 4444);
const DRIVER = `http://127.0.0.1:${PORT}`;

let driver;

before(async () => {
  mkdirSync(SHOTS, { recursive: true });
  // The app inherits tauri-driver's environment: the data folder the CLI wrote, XDG folders of
  // its own (logs, WebKit's caches), no D-Bus session (so no keychain: the passphrase it was
  // made with unlocks it) and the loopback model server as the chosen endpoint.
  const env = { ...process.env };
  delete env.VIBE_DB_PASSPHRASE;
  delete env.LD_LIBRARY_PATH;
  delete env.VIBE_BUILTIN_SKILLS_DIR;
  Object.assign(env, {
    VIBE_DATA_DIR: DATA_DIR,
    HOME,
    XDG_DATA_HOME: join(HOME, `xdg-data-${STAGE}`),
    XDG_CACHE_HOME: join(HOME, `xdg-cache-${STAGE}`),
    XDG_CONFIG_HOME: join(HOME, `xdg-config-${STAGE}`),
    DBUS_SESSION_BUS_ADDRESS: "disabled:",
    VIBE_LLM_BASE_URL: LLM_URL,
    VIBE_LLM_MODEL: "fake-chat",
    VIBE_LLM_API_KEY: "",
  });
  driver = spawn(TAURI_DRIVER, await driverArgs(PORT, WEBKIT_DRIVER), {
    env,
    stdio: ["ignore", "pipe", "pipe"],
  });
  driver.stderr.on("data", (d) => process.env.WINDOW_TEST_VERBOSE && process.stderr.write(d));
  driver.stdout.on("data", (d) => process.env.WINDOW_TEST_VERBOSE && process.stdout.write(d));
  await waitFor("tauri-driver /status", async () => (await fetch(`${DRIVER}/status`)).ok, 20_000, 200);
});

after(async () => {
  if (!driver || driver.exitCode !== null || driver.signalCode !== null) return;
  const exited = new Promise((resolve) => driver.once("exit", resolve));
  driver.kill("SIGTERM");
  const timer = setTimeout(() => driver.kill("SIGKILL"), 3000);
  await exited;
  clearTimeout(timer);
  driver.stdout?.destroy();
  driver.stderr?.destroy();
});

/** The app's window as the X server shows it (ImageMagick's `import` of the window titled
 * VibeLife), once it shows more than a blank frame; saved as SHOTS_DIR/NAME. */
async function shot(session, name) {
  const png = await waitFor(`${name} to show more than a blank window`, async () => {
    await session.executeAsync(
      "const done = arguments[arguments.length - 1]; requestAnimationFrame(() => requestAnimationFrame(() => done(null)));",
    );
    const tree = execFileSync("xwininfo", ["-root", "-tree"]).toString();
    const ids = [...tree.matchAll(/^\s+(0x[0-9a-f]+) "VibeLife": .*?(\d+)x(\d+)\+/gm)]
      .filter((m) => Number(m[2]) > 200 && Number(m[3]) > 200)
      .map((m) => m[1]);
    if (ids.length === 0) return null;
    const png = execFileSync("import", ["-window", ids[0], "png:-"], { maxBuffer: 64 << 20 });
    const colors = Number(execFileSync("identify", ["-format", "%k", "png:-"], { input: png }).toString().trim());
    return colors > 16 ? png : null;
  });
  writeFileSync(join(SHOTS, name), png);
}

/** The texts of every element with data-testid `id`. */
async function texts(session, id) {
  return Promise.all((await session.findAll(`[data-testid="${id}"]`)).map((e) => e.text()));
}

test(`the installed app (${STAGE}) unlocks the folder and shows the conversation, the journal and the protocol run`, async () => {
  const app = await Session.start(DRIVER, { browserName: "wry", "tauri:options": { application: APP } });
  try {
    // A folder encrypted with a passphrase and no keychain: the unlock screen asks for it.
    await (await app.byTestId("unlock-passphrase")).type(EXPECT.passphrase);
    await (await app.byTestId("unlock-submit")).click();

    // Today: the protocol run the CLI started and answered one step of, on its next step.
    await app.byTestId("today");
    const protocol = await app.byTestId("today-protocol");
    await waitFor("the protocol run on Today", async () => {
      const text = await protocol.text();
      return EXPECT.protocol_titles.some((t) => text.includes(t)) && text.includes(String(EXPECT.step)) ? text : null;
    });
    const card = await protocol.text();
    assert.ok(
      card.includes(`Step ${EXPECT.step} of ${EXPECT.total}`) || card.includes(`第 ${EXPECT.step} 步，共 ${EXPECT.total} 步`),
      `Today's protocol card is not at step ${EXPECT.step} of ${EXPECT.total}: ${card}`,
    );
    // Made by `vibe` (or v0.1.0), the folder has no update choice: the window asks it (and this
    // test, writing nothing, leaves it unanswered).
    await app.byTestId("update-question");
    await shot(app, `install-${STAGE}-today.png`);

    // Journal: the entry written with `vibe journal add`, and the check-in.
    await (await app.byTestId("nav-journal")).click();
    await app.byTestId("journal");
    await waitFor("the journal entry", async () => (await texts(app, "journal-entry")).some((t) => t.includes(EXPECT.journal)));
    if (EXPECT.checkin) {
      assert.ok((await texts(app, "journal-entry")).some((t) => t.includes(EXPECT.checkin)), "the check-in is in the journal");
    }
    await shot(app, `install-${STAGE}-journal.png`);

    // Chat: the conversations, the one asked for opened, with the question and the model's reply.
    await (await app.byTestId("nav-chat")).click();
    const conversations = EXPECT.conversations ?? 1;
    const items = await waitFor("the conversations in the list", async () => {
      const all = await app.findAll('[data-testid="conversation-item"] button.title');
      return all.length >= conversations ? all : null;
    });
    assert.equal(items.length, conversations, `${conversations} conversation(s)`);
    // With several, the one holding the question (the list's title buttons give WebKitWebDriver
    // no text, so each is opened in turn until its thread shows the question).
    for (const item of items) {
      await item.click();
      const users = await waitFor("the conversation's messages", async () => {
        const all = await texts(app, "msg-user");
        return all.length > 0 ? all : null;
      });
      if (users.includes(EXPECT.question)) break;
    }
    await waitFor("the question", async () => (await texts(app, "msg-user")).includes(EXPECT.question));
    await waitFor("the reply", async () => (await texts(app, "msg-assistant")).some((t) => t.includes(EXPECT.reply)));
    // The protocol run's bar above it, on the step after the one answered.
    const bar = await app.byTestId("protocol-progress");
    await waitFor("the protocol bar on its step", async () => (await bar.attribute("aria-valuenow")) === String(EXPECT.step));
    assert.equal(await bar.attribute("aria-valuemax"), String(EXPECT.total));
    await shot(app, `install-${STAGE}-chat.png`);
  } catch (e) {
    // What the window showed when it failed: its text, and a screenshot when it has painted.
    const body = await app.find("body").then((b) => b.text()).catch(() => "(no body)");
    await shot(app, `install-${STAGE}-failed.png`).catch(() => {});
    throw new Error(`${e.message}\nthe window showed:\n${body}`);
  } finally {
    await app.close();
  }
});
