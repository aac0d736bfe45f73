// A minimal W3C WebDriver client (the few endpoints the real-window test uses), over Node's
// fetch: sessions, finding elements by CSS, click, typing, text, attributes, scripts, the
// window's size and screenshots. tauri-driver forwards these to WebKitWebDriver, which drives the app's webview.

import { mkdirSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";

const ELEMENT = "element-6066-11e4-a52e-4f735466cecf";

/** A loopback TCP port nothing listens on now (the system's pick). */
export function freePort() {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

/**
 * tauri-driver's arguments: its own `port`, and WebKitWebDriver on a free port of its own.
 * Left to tauri-driver, WebKitWebDriver takes 4445, which another test's tauri-driver may hold
 * (it then dies with "Unable to listen for HTTP server", and the test sees no driver).
 */
export async function driverArgs(port, webkitDriver) {
  return ["--port", String(port), "--native-port", String(await freePort()), "--native-driver", webkitDriver];
}

export class WebDriverError extends Error {}

async function request(base, method, path, body) {
  const res = await fetch(`${base}${path}`, {
    method,
    headers: body === undefined ? {} : { "content-type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const json = await res.json().catch(() => ({}));
  if (!res.ok) {
    const v = json.value ?? {};
    throw new WebDriverError(`${method} ${path}: ${res.status} ${v.error ?? ""} ${v.message ?? ""}`.trim());
  }
  return json.value;
}

/** Polls `fn` until it returns a truthy value (or stops throwing), at most `timeoutMs`. */
export async function waitFor(what, fn, timeoutMs = 15_000, everyMs = 100) {
  const end = Date.now() + timeoutMs;
  let last;
  for (;;) {
    try {
      const v = await fn();
      if (v) return v;
      last = new Error(`got ${JSON.stringify(v)}`);
    } catch (e) {
      last = e;
    }
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}: ${last?.message ?? last}`);
    await new Promise((r) => setTimeout(r, everyMs));
  }
}

export class Session {
  static async start(base, capabilities) {
    const value = await request(base, "POST", "/session", { capabilities: { alwaysMatch: capabilities } });
    return new Session(base, value.sessionId);
  }

  constructor(base, id) {
    this.base = base;
    this.id = id;
  }

  #call(method, path, body) {
    return request(this.base, method, `/session/${this.id}${path}`, body);
  }

  async find(css) {
    const v = await this.#call("POST", "/element", { using: "css selector", value: css });
    return new Element(this, v[ELEMENT]);
  }

  async findAll(css) {
    const v = await this.#call("POST", "/elements", { using: "css selector", value: css });
    return v.map((e) => new Element(this, e[ELEMENT]));
  }

  /**
   * Waits until an element matching `css` exists and returns it. When it never comes, the
   * error carries what the window showed instead: its text, and a screenshot's path.
   */
  async waitFind(css, timeoutMs) {
    try {
      return await waitFor(css, () => this.find(css), timeoutMs);
    } catch (e) {
      throw new Error(`${e.message}\n${await this.#evidence()}`);
    }
  }

  async #evidence() {
    const dir = join(process.env.FAILURE_SHOTS_DIR ?? tmpdir(), "vibelife-window-failures");
    try {
      mkdirSync(dir, { recursive: true });
      const file = join(dir, `failure-${Date.now()}.png`);
      writeFileSync(file, await this.screenshot());
      const text = await this.execute("return document.body.innerText;");
      return `the window showed (screenshot ${file}):\n${String(text).slice(0, 1500)}`;
    } catch (e) {
      return `(no screenshot: ${e.message})`;
    }
  }

  byTestId(id) {
    return this.waitFind(`[data-testid="${id}"]`);
  }

  execute(script, args = []) {
    return this.#call("POST", "/execute/sync", { script, args });
  }

  executeAsync(script, args = []) {
    return this.#call("POST", "/execute/async", { script, args });
  }

  /** Resizes the window (W3C Set Window Rect); answers the rect the window got. */
  setWindowRect(width, height) {
    return this.#call("POST", "/window/rect", { width, height });
  }

  /** The handles of the session's windows (W3C Get Window Handles). */
  windowHandles() {
    return this.#call("GET", "/window/handles");
  }

  /** Makes `handle` the window the next commands go to (W3C Switch To Window). */
  switchToWindow(handle) {
    return this.#call("POST", "/window", { handle });
  }

  /** A PNG of the window, as a Buffer. */
  async screenshot() {
    return Buffer.from(await this.#call("GET", "/screenshot"), "base64");
  }

  async close() {
    await this.#call("DELETE", "");
  }

  elementCall(method, elementId, path, body) {
    return this.#call(method, `/element/${elementId}${path}`, body);
  }
}

export class Element {
  constructor(session, id) {
    this.session = session;
    this.id = id;
  }

  click() {
    return this.session.elementCall("POST", this.id, "/click", {});
  }

  clear() {
    return this.session.elementCall("POST", this.id, "/clear", {});
  }

  /** Types `text` (WebDriver key codes such as "\uE007" for Enter work too). */
  type(text) {
    return this.session.elementCall("POST", this.id, "/value", { text });
  }

  text() {
    return this.session.elementCall("GET", this.id, "/text");
  }

  attribute(name) {
    return this.session.elementCall("GET", this.id, `/attribute/${name}`);
  }

  property(name) {
    return this.session.elementCall("GET", this.id, `/property/${name}`);
  }

  displayed() {
    return this.session.elementCall("GET", this.id, "/displayed");
  }
}

export const ENTER = "\uE007";
