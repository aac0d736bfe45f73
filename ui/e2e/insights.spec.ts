// The Insights screen over the mocked shell's seeded 90 days: in both languages and both themes
// it draws the mood chart (a canvas with pixels on it), the calendar, feelings, protocols, goals
// and the weekly card, each chart with its sentence for screen readers, and passes axe-core; the
// range switch works from the keyboard; the chart's colours follow the theme switch; the chart
// library is loaded only when Insights opens; without check-ins it invites a first one.
import { expect, test, type Page } from "@playwright/test";
import { axe, SHOTS } from "./support";

const TODAY = "2026-11-27";

/** How many of the chart canvas's pixels are painted (not transparent). */
const painted = (page: Page) =>
  page.getByTestId("insights-mood-chart").locator("canvas").evaluate((c: HTMLCanvasElement) => {
    const data = c.getContext("2d")?.getImageData(0, 0, c.width, c.height).data ?? new Uint8ClampedArray();
    let n = 0;
    for (let i = 3; i < data.length; i += 4) if ((data[i] ?? 0) > 0) n++;
    return n;
  });

async function open(page: Page, query: string) {
  await page.goto(`./?delay=0&today=${TODAY}&${query}`);
  await page.getByTestId("nav-insights").click();
  await expect(page.getByTestId("insights")).toHaveAttribute("data-ready", "true");
}

const WORDS = {
  en: { tab: "90 days", mood: "Mood over the last 90 days:", calendar: "In the last 90 days: check-ins on", week: "This week:", goal: "Move into product design" },
  "zh-CN": { tab: "90 天", mood: "最近 90 天的心情：", calendar: "最近 90 天：90 天中有", week: "本周：", goal: "转行成为产品设计师" },
};

for (const lang of ["en", "zh-CN"] as const) {
  for (const theme of ["light", "dark"] as const) {
    test(`Insights draws 90 days in words and pictures and passes axe-core (${lang}, ${theme})`, async ({ page }) => {
      const w = WORDS[lang];
      await page.emulateMedia({ colorScheme: theme });
      await page.setViewportSize({ width: 1100, height: 2000 });
      await open(page, `lang=${lang}`);
      await page.getByRole("radio", { name: w.tab }).click();
      await expect(page.getByTestId("insights")).toHaveAttribute("data-range", "quarter");
      await expect(page.getByTestId("insights")).toHaveAttribute("data-ready", "true");
      await expect(page.getByTestId("insights-mood-alt")).toContainText(w.mood);
      await expect(page.getByTestId("insights-calendar-alt")).toContainText(w.calendar);
      await expect(page.getByTestId("insights-week")).toContainText(w.week);
      await expect(page.getByTestId("insights-goals")).toContainText(w.goal);
      const cells = page.getByTestId("insights-calendar").locator(".heat-grid .heat-cell:not(.heat-none)");
      await expect(cells).toHaveCount(90);
      // A cell says its day when the pointer reaches it.
      await cells.last().hover();
      await expect(cells.last()).toHaveAttribute("title", lang === "en" ? /^Nov 27: check-ins \d, journal entries \d$/ : /^11月27日：签到 \d 次/);
      await expect(page.getByTestId("insights-feelings").getByRole("listitem")).not.toHaveCount(0);
      await expect(page.getByTestId("insights-protocols").getByRole("listitem")).not.toHaveCount(0);
      // The canvas is drawn, and its screen-reader table lists the days with a mood.
      expect(await painted(page)).toBeGreaterThan(2000);
      await expect(page.getByTestId("insights-mood-chart").locator("table tbody tr")).not.toHaveCount(0);
      await axe(page, `insights ${lang} ${theme}`);
      await page.screenshot({ path: `${SHOTS}/insights-90-days-${lang}-${theme}.png` });
    });
  }
}

test("the week in the coach's words, asked for, says what is sent; a failure keeps the card's own words", async ({ page }) => {
  await open(page, "lang=en");
  const card = page.getByTestId("insights-week");
  await expect(card).toContainText("Sends only this week's numbers to your model, never what you wrote.");
  expect(await page.evaluate(() => window.__vibeMock.fromWebview.filter((c) => c.cmd === "insights_week_words").length), "nothing is sent unasked").toBe(0);
  await page.getByTestId("insights-week-ask").click();
  await expect(page.getByTestId("insights-week-ask")).toHaveText("Asking your coach…");
  await expect(page.getByTestId("insights-week-words")).toContainText("A steady week:");
  await expect(page.getByTestId("insights-week-words")).toContainText("your coach, from this week's numbers");
  await expect(card).toContainText("This week:");
  const asked = await page.evaluate(() => window.__vibeMock.fromWebview.filter((c) => c.cmd === "insights_week_words").map((c) => JSON.parse(c.args).request));
  expect(asked).toEqual([{ until: TODAY, lang: "en" }]);
  await card.screenshot({ path: `${SHOTS}/insights-week-words.png` });
  await axe(page, "insights with the coach's words");

  await page.goto(`./?delay=0&today=${TODAY}&lang=zh-CN&fail=insights_week_words`);
  await page.getByTestId("nav-insights").click();
  await page.getByTestId("insights-week-ask").click();
  await expect(page.getByTestId("insights-week")).toContainText("database is locked");
  await expect(page.getByTestId("insights-week")).toContainText("本周：");
  await expect(page.getByTestId("insights-week-ask")).toHaveText("听听教练怎么说");
});

test("the range switch is reached and moved with the keyboard, and the chart follows it", async ({ page }) => {
  await open(page, "lang=en");
  await expect(page.getByTestId("insights")).toHaveAttribute("data-range", "month");
  await page.getByTestId("nav-insights").focus();
  let reached = false;
  for (let i = 0; i < 10 && !reached; i++) {
    await page.keyboard.press("Tab");
    reached = await page.getByTestId("insights-range-month").evaluate((el) => el === document.activeElement);
  }
  expect(reached, "Tab reaches the chosen range").toBe(true);
  await page.keyboard.press("ArrowRight");
  await expect(page.getByTestId("insights")).toHaveAttribute("data-range", "quarter");
  await expect(page.getByTestId("insights-range-quarter")).toBeFocused();
  await page.keyboard.press("ArrowRight");
  await expect(page.getByTestId("insights")).toHaveAttribute("data-ready", "true");
  await expect(page.getByTestId("insights-mood-alt")).toContainText("Mood over the last year:");
  await expect(page.getByTestId("insights-calendar").locator(".heat-grid .heat-cell:not(.heat-none)")).toHaveCount(365);
  await page.setViewportSize({ width: 1100, height: 1300 });
  await page.screenshot({ path: `${SHOTS}/insights-year-en.png` });
  await page.keyboard.press("ArrowLeft");
  await page.keyboard.press("ArrowLeft");
  await page.keyboard.press("ArrowLeft");
  await expect(page.getByTestId("insights")).toHaveAttribute("data-range", "week");
  await expect(page.getByTestId("insights-mood-alt")).toContainText("Mood over the last 7 days:");
});

test("the chart's colours follow the theme switch without leaving the screen", async ({ page }) => {
  await page.emulateMedia({ colorScheme: "light" });
  await open(page, "lang=en");
  const canvas = page.getByTestId("insights-mood-chart").locator("canvas");
  const light = await canvas.evaluate((c: HTMLCanvasElement) => c.toDataURL());
  await page.emulateMedia({ colorScheme: "dark" });
  await expect(page.locator("html")).toHaveAttribute("data-theme", "dark");
  await expect.poll(() => canvas.evaluate((c: HTMLCanvasElement) => c.toDataURL())).not.toBe(light);
  expect(await painted(page)).toBeGreaterThan(2000);
});

test("the chart library loads only when Insights opens", async ({ page }) => {
  const chunks: string[] = [];
  page.on("request", (r) => {
    if (/InsightsScreen-.*\.js$/.test(r.url())) chunks.push(r.url());
  });
  await page.goto(`./?lang=en&delay=0&today=${TODAY}`);
  // The app opens on Today; the chat is mounted too. Neither pays for the chart library.
  await expect(page.getByTestId("today")).toBeVisible();
  expect(await page.evaluate(() => document.querySelectorAll("canvas, .uplot").length)).toBe(0);
  expect(chunks).toEqual([]);
  await page.getByTestId("nav-insights").click();
  await expect(page.getByTestId("insights-mood-chart")).toBeVisible();
  expect(chunks).toHaveLength(1);
});

for (const lang of ["en", "zh-CN"] as const) {
  test(`without check-ins Insights invites a first one, which leads to Today (${lang})`, async ({ page }) => {
    await open(page, `lang=${lang}&insights=empty`);
    const empty = page.getByTestId("insights-empty");
    await expect(empty).toContainText(lang === "en" ? "Your insights start with a check-in" : "洞察从一次签到开始");
    await expect(page.getByTestId("insights-mood-chart")).toHaveCount(0);
    await axe(page, `insights empty ${lang}`);
    await page.screenshot({ path: `${SHOTS}/insights-empty-${lang}.png` });
    await page.getByTestId("insights-checkin").click();
    await expect(page.getByTestId("insights")).toHaveCount(0);
    // Today, once that screen is in the navigation; until then the chat.
    const target = (await page.getByTestId("nav-today").count()) > 0 ? "nav-today" : "nav-chat";
    await expect(page.getByTestId(target)).toHaveAttribute("aria-current", "true");
  });
}

test("Insights opens on a system whose locale is C, as WebKitGTK reports it under LANG=C", async ({ page }) => {
  // WebKitGTK says navigator.language is "C" there; Intl refuses that tag, and the chart library
  // formats numbers with it as it loads.
  await page.addInitScript(() => {
    Object.defineProperty(navigator, "language", { configurable: true, get: () => "C" });
    Object.defineProperty(navigator, "languages", { configurable: true, get: () => ["C"] });
  });
  await open(page, "");
  await expect(page.getByTestId("insights-mood-chart")).toBeVisible();
  await expect.poll(() => painted(page)).toBeGreaterThan(0);
  // The UI's language falls back to English, as for any language it does not speak.
  await expect(page.locator("html")).toHaveAttribute("lang", "en");
});

for (const lang of ["en", "zh-CN"] as const) {
  test(`a screen that fails to load says so and the rest of the app still works (${lang})`, async ({ page }) => {
    await page.route(/InsightsScreen-.*\.js$/, (route) => route.abort("failed"));
    await page.goto(`./?lang=${lang}&delay=0&today=${TODAY}`);
    await page.getByTestId("nav-insights").click();
    const failure = page.getByTestId("screen-failure");
    await expect(failure).toBeVisible();
    await expect(failure).toContainText(lang === "en" ? "This screen could not open:" : "这个页面没能打开：");
    await expect(failure.getByRole("button")).toHaveText(lang === "en" ? "Reload the window" : "重新载入窗口");
    await page.screenshot({ path: `${SHOTS}/screen-failure-${lang}.png` });
    await page.getByTestId("nav-today").click();
    await expect(page.getByTestId("today")).toBeVisible();
  });
}
