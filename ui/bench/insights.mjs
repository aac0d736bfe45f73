// Insights benchmark (issue 31): the Insights screen with a YEAR of daily check-ins (the mock
// shell's seed, `?insightsDays=365`) in headless Chromium over the e2e build. It reports the
// renderer main thread's CPU time (CDP ThreadTime: script, style, layout, paint) for
//   - the first open (click on the nav → screen drawn; includes fetching and compiling the lazy
//     chunk with the chart library), and
//   - switching the range to "year" (click → the year's screen drawn), over several runs,
// plus the UI's own share of a switch (the `insights-render-year` measure: the answer's arrival
// → React's commit and effects, uPlot's chart included) and the longest long task. The mock's
// computing of the series stands in for the core's (which runs in Rust, off the main thread),
// so the ThreadTime figures are an upper bound. Goal: ≤ 100 ms. Not a test.
import { startPreview } from "./preview.mjs";

const PORT = 4176;
const RUNS = Number(process.env.RUNS ?? 10);

function stats(xs) {
  const s = [...xs].sort((a, b) => a - b);
  return { median: s[Math.floor(s.length / 2)], max: s[s.length - 1], min: s[0] };
}

const { browser, stop } = await startPreview(PORT);
try {
  const page = await browser.newPage({ viewport: { width: 1100, height: 760 } });
  await page.goto(`http://127.0.0.1:${PORT}/?lang=zh-CN&delay=0&insightsDays=365&today=2026-11-27`);
  await page.getByTestId("nav-insights").waitFor();
  await page.evaluate(() => {
    window.__longTasks = [];
    new PerformanceObserver((l) => window.__longTasks.push(...l.getEntries().map((e) => e.duration))).observe({ type: "longtask", buffered: false });
  });
  const cdp = await page.context().newCDPSession(page);
  await cdp.send("Performance.enable");
  const threadTime = async () => (await cdp.send("Performance.getMetrics")).metrics.find((m) => m.name === "ThreadTime").value * 1000;
  /** Two frames after the screen says it is ready: style, layout and paint have run. */
  const settled = async (range) => {
    await page.locator(`[data-testid="insights"][data-range="${range}"][data-ready="true"]`).waitFor();
    await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
  };

  let t0 = await threadTime();
  await page.getByTestId("nav-insights").click();
  await settled("month");
  const firstOpen = (await threadTime()) - t0;

  const year = [];
  const render = [];
  for (let i = 0; i < RUNS; i++) {
    await page.getByTestId("insights-range-month").click();
    await settled("month");
    await page.evaluate(() => {
      performance.clearMeasures();
      window.__longTasks.length = 0;
    });
    t0 = await threadTime();
    await page.getByTestId("insights-range-year").click();
    await settled("year");
    year.push((await threadTime()) - t0);
    render.push(await page.evaluate(() => performance.getEntriesByName("insights-render-year").at(-1)?.duration ?? NaN));
  }
  const longest = await page.evaluate(() => Math.max(0, ...window.__longTasks));
  const points = await page.getByTestId("insights-mood-chart").locator("table tbody tr").count();
  const cells = await page.locator(".heat-grid .heat-cell:not(.heat-none)").count();
  const f = (x) => x.toFixed(1);
  const y = stats(year);
  const r = stats(render);
  console.log(`a year: ${points} months in the chart's table, ${cells} calendar cells; ${RUNS} runs`);
  console.log(`first open (lazy chunk + month): main-thread CPU ${f(firstOpen)} ms`);
  console.log(`switch to the year: main-thread CPU median ${f(y.median)} ms (min ${f(y.min)}, max ${f(y.max)}); UI render (answer → drawn) median ${f(r.median)} ms, max ${f(r.max)} ms; longest long task in the last run ${f(longest)} ms`);
  console.log("goal: a year renders in ≤ 100 ms of main-thread time");
} finally {
  await stop();
}
