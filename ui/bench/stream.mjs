// Streaming benchmark (issue #15 "Speed"): a 20,000-character Markdown answer (headings, lists,
// a table, code blocks, CJK) streamed in 2,000 deltas into the real chat screen in headless
// Chromium (the e2e build over the mocked shell). For windows of 100 deltas near the start and
// at the end it reports the renderer main thread's CPU time per delta (CDP ThreadTime: JS,
// React, style and layout) and the wall time from the event's arrival to the laid-out DOM.
// Goal: the last deltas ≤ 2 ms each and ≤ 2× the first ones. Not a test.
import { startPreview } from "./preview.mjs";

const PORT = 4175;
const TOTAL = 20_000;
const DELTAS = 2_000;

function answer() {
  const parts = [];
  for (let i = 1; parts.join("").length < TOTAL; i++) {
    parts.push(
      `## 第 ${i} 部分：Section ${i}\n\n`,
      `这是一段中文说明，讨论目标、习惯和复盘。Some English text with **bold** and *emphasis* and \`code\`.\n\n`,
      `- 要点一 item one\n- 要点二 item two\n  - nested 嵌套\n- 要点三 item three\n\n`,
      `| 列 A | 列 B | 列 C |\n|---|---|---|\n| ${i} | 二 | three |\n| 四 | five | 六 |\n\n`,
      "```ts\n" + `function step${i}(x: number): number {\n  return x * ${i}; // 计算\n}\n` + "```\n\n",
      `1. 第一步\n2. 第二步\n3. 第三步\n\n> 引用：慢慢来，比较快。\n\n`,
    );
  }
  return parts.join("").slice(0, TOTAL);
}

function stats(xs) {
  const s = [...xs].sort((a, b) => a - b);
  const q = (p) => s[Math.min(s.length - 1, Math.floor(p * s.length))];
  return { median: q(0.5), p95: q(0.95), max: s[s.length - 1], mean: xs.reduce((a, b) => a + b, 0) / xs.length };
}

const { browser, stop } = await startPreview(PORT);
try {
  const page = await browser.newPage({ viewport: { width: 1100, height: 760 } });
  await page.goto(`http://127.0.0.1:${PORT}/?lang=en&delay=0#chat`);
  await page.getByTestId("composer").fill("bench");
  await page.getByTestId("composer").press("Enter");
  await page.getByTestId("msg-assistant").waitFor();
  const text = answer();
  const size = Math.ceil(text.length / DELTAS);
  const cdp = await page.context().newCDPSession(page);
  await cdp.send("Performance.enable");
  const threadTime = async () =>
    (await cdp.send("Performance.getMetrics")).metrics.find((m) => m.name === "ThreadTime").value * 1000;
  /** Streams deltas [from, to); returns wall ms per delta and the main thread's CPU ms per delta. */
  async function stream(from, to) {
    const cpu0 = await threadTime();
    const wall = await page.evaluate(
      async ({ text, from, to, size }) => {
        const tick = () => new Promise((r) => { const c = new MessageChannel(); c.port1.onmessage = r; c.port2.postMessage(0); });
        const out = [];
        for (let i = from; i < to; i++) {
          await tick();
          const t0 = performance.now();
          window.__vibeMock.emit({ run_id: "", seq: 0, ts: "", type: "assistant_delta", text: text.slice(i * size, (i + 1) * size) });
          await tick(); // React renders in a scheduler task queued before this one
          void document.body.offsetHeight; // style and layout of what changed
          out.push(performance.now() - t0);
        }
        return out;
      },
      { text, from, to, size },
    );
    return { wall: stats(wall), cpu: ((await threadTime()) - cpu0) / (to - from) };
  }
  const windows = [
    ["deltas    1-100 (warm-up)", await stream(0, 100)],
    ["deltas  101-200 (start)  ", await stream(100, 200)],
  ];
  await stream(200, DELTAS - 100);
  windows.push(["deltas 1901-2000 (end)   ", await stream(DELTAS - 100, DELTAS)]);
  const rendered = await page.getByTestId("msg-assistant").textContent();
  const f = (x) => x.toFixed(2);
  console.log(`chars ${text.length}, deltas ${DELTAS}, rendered text ${rendered.length} chars`);
  for (const [name, r] of windows) {
    console.log(`${name}: main-thread CPU ${f(r.cpu)} ms/delta; wall median ${f(r.wall.median)} ms, mean ${f(r.wall.mean)} ms, p95 ${f(r.wall.p95)} ms`);
  }
  const [, start] = windows[1];
  const [, last] = windows[2];
  console.log(`end/start: CPU ${(last.cpu / start.cpu).toFixed(2)}×, wall median ${(last.wall.median / start.wall.median).toFixed(2)}×; goal: end ≤ 2 ms per delta and ≤ 2× the start`);
} finally {
  await stop();
}
