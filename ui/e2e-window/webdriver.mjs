// A minimal W3C WebDriver client (the few endpoints the real-window test uses), over Node's
// fetch: sessions, finding elements by CSS, click, typing, text, attributes, scripts, the
// window's size and screenshots. tauri-driver forwards these to WebKitWebDriver, which drives the app's webview.

const ELEMENT = "element-6066-11e4-a52e-4f735466cecf";

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

  /** Waits until an element matching `css` exists and returns it. */
  waitFind(css, timeoutMs) {
    return waitFor(css, () => this.find(css), timeoutMs);
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
