// Updates over the mocked shell (src/e2e-mock/updates.ts): the first run's question, the same
// question asked once of a person whose data folder predates it, the Settings switch and "Check
// now", the update the shell's clock found while the window was open, and the update dialog that
// shows what's new and installs only when the person says so; refusals (bad signature, truncated
// download, no build for this platform) in words, in both languages, with axe-core. Until the
// person allows checks no request reaches the (fake) update server.
import { expect, test, type Page } from "@playwright/test";
import { axe, SHOTS } from "./support";

const choice = (page: Page) => page.evaluate(() => window.__vibeMock.settings.preferences.updates);
const serverRequests = (page: Page) => page.evaluate(() => window.__vibeMock.updates.serverRequests);
const installs = (page: Page) => page.evaluate(() => window.__vibeMock.updates.installs);

const WORDS = {
  en: {
    question: "Look for updates?",
    ask: "Look for updates",
    off: "Don't look",
    title: "VibeLife 0.2.0 is available",
    install: "Install now",
    later: "Later",
    installed: "VibeLife 0.2.0 is installed",
    badSignature: "is not signed by the VibeLife authors",
    truncated: "stopped before it was complete",
    noBuild: "has no build of this version for your system",
    nothingChanged: "Nothing was installed or changed.",
    switch: "Look for updates once a day (asks before installing)",
    intro: "New in this version: VibeLife can keep itself up to date.",
    chosenOff: "VibeLife will not look for updates.",
    close: "Close",
  },
  "zh-CN": {
    question: "要检查更新吗？",
    ask: "检查更新",
    off: "不检查",
    title: "VibeLife 0.2.0 已发布",
    install: "立即安装",
    later: "以后再说",
    installed: "VibeLife 0.2.0 已安装",
    badSignature: "不是 VibeLife 作者签名的",
    truncated: "下载没有完成就中断了",
    noBuild: "没有适用于你的系统的这个版本",
    nothingChanged: "没有安装或更改任何东西。",
    switch: "每天检查一次更新（安装前先问我）",
    intro: "此版本新增：VibeLife 可以自动检查更新。",
    chosenOff: "VibeLife 不会检查更新。",
    close: "关闭",
  },
} as const;

for (const lang of ["en", "zh-CN"] as const) {
  const w = WORDS[lang];

  test(`first run asks whether to look for updates, and the answer is saved (${lang})`, async ({ page }) => {
    await page.goto(`./?lang=${lang}&firstRun=1&update=0.2.0#chat`);
    const card = page.getByTestId("first-run-updates");
    await expect(card.getByRole("heading")).toHaveText(w.question);
    await expect(page.getByTestId("updates-ask")).toHaveText(w.ask);
    await expect(page.getByTestId("updates-off")).toHaveText(w.off);
    await axe(page, `first-run update question ${lang}`);
    await page.screenshot({ path: `${SHOTS}/updates-first-run-${lang}.png` });
    expect(await choice(page)).toBe("undecided");
    await page.getByTestId("updates-ask").click();
    await expect(page.getByTestId("updates-chosen")).toBeVisible();
    expect(await choice(page)).toBe("ask");
    // Choosing is not checking: nothing reached the server from the first-run screen.
    expect(await serverRequests(page)).toBe(0);
  });

  test(`the update dialog shows what's new and installs only when asked (${lang})`, async ({ page }) => {
    await page.goto(`./?lang=${lang}&updates=ask&update=0.2.0#chat`);
    const dialog = page.getByTestId("update-dialog");
    await expect(dialog.getByRole("heading").first()).toHaveText(w.title);
    await expect(page.getByTestId("update-notes")).toHaveText("Reminders arrive while VibeLife is in the tray.");
    await expect(page.getByTestId("update-later")).toHaveText(w.later);
    await expect(page.getByTestId("update-install")).toHaveText(w.install);
    // The safe choice has the focus: Enter does not install.
    await expect(page.getByTestId("update-later")).toBeFocused();
    await axe(page, `update dialog ${lang}`);
    await page.screenshot({ path: `${SHOTS}/update-dialog-${lang}.png` });
    expect(await installs(page)).toBe(0);
    await page.getByTestId("update-install").click();
    await expect(page.getByTestId("update-outcome")).toContainText(w.installed);
    expect(await installs(page)).toBe(1);
    await page.getByTestId("update-later").click();
    await expect(dialog).toHaveCount(0);
  });

  for (const [refusal, words] of [
    ["bad_signature", w.badSignature],
    ["truncated_download", w.truncated],
  ] as const) {
    test(`a ${refusal} install is refused in words and nothing changes (${lang})`, async ({ page }) => {
      await page.goto(`./?lang=${lang}&updates=ask&update=0.2.0&updateInstall=${refusal}#chat`);
      await page.getByTestId("update-install").click();
      const alert = page.getByTestId("update-outcome").getByRole("alert");
      await expect(alert).toContainText(words);
      await expect(alert).toContainText(w.nothingChanged);
      await axe(page, `update refused ${refusal} ${lang}`);
      await page.screenshot({ path: `${SHOTS}/update-refused-${refusal}-${lang}.png` });
      expect(await installs(page)).toBe(0);
      // Nothing installed: the install button is still there to try again later.
      await expect(page.getByTestId("update-install")).toBeVisible();
    });
  }

  test(`a folder from before the choice is asked once, above the app, and the answer is saved (${lang})`, async ({ page }) => {
    // An upgrader: set up (no first run), no update choice saved.
    await page.goto(`./?lang=${lang}&updates=undecided&update=0.2.0#today`);
    const card = page.getByTestId("update-question");
    await expect(card.getByRole("heading")).toHaveText(w.question);
    await expect(card).toContainText(w.intro);
    await expect(card.getByTestId("updates-ask")).toHaveText(w.ask);
    await expect(card.getByTestId("updates-off")).toHaveText(w.off);
    await axe(page, `upgrader update question ${lang}`);
    await page.screenshot({ path: `${SHOTS}/updates-upgrader-question-${lang}.png` });
    // Asked on every screen of the app until answered, but not beside the Settings switch.
    await page.getByTestId("nav-journal").click();
    await expect(page.getByTestId("update-question")).toBeVisible();
    await page.getByTestId("nav-settings").click();
    await expect(page.getByTestId("settings-updates")).toBeVisible();
    await expect(page.getByTestId("update-question")).toHaveCount(0);
    await page.getByTestId("nav-today").click();
    expect(await choice(page)).toBe("undecided");
    await page.getByTestId("update-question").getByTestId("updates-off").click();
    await expect(page.getByTestId("updates-chosen")).toContainText(w.chosenOff);
    expect(await choice(page)).toBe("off");
    await axe(page, `upgrader update question answered ${lang}`);
    await page.screenshot({ path: `${SHOTS}/updates-upgrader-answered-${lang}.png` });
    await page.getByTestId("updates-done").click();
    await expect(page.getByTestId("update-question")).toHaveCount(0);
    // Answered is answered: another screen does not ask again.
    await page.getByTestId("nav-chat").click();
    await expect(page.getByTestId("composer")).toBeVisible();
    await expect(page.getByTestId("update-question")).toHaveCount(0);
    expect(await serverRequests(page)).toBe(0);
  });

  test(`an update the shell's clock finds while the window is open is offered (${lang})`, async ({ page }) => {
    // Checked today already: the window's own check at start is not due.
    await page.goto(`./?lang=${lang}&updates=ask&updateChecked=today&update=0.2.0#today`);
    await expect(page.getByTestId("nav-today")).toBeVisible();
    await expect(page.getByTestId("update-dialog")).toHaveCount(0);
    expect(await serverRequests(page)).toBe(0);
    // A day later the shell's clock checks and tells the window.
    await page.evaluate(() => window.__vibeMock.updates.clock());
    const dialog = page.getByTestId("update-dialog");
    await expect(dialog.getByRole("heading").first()).toHaveText(w.title);
    expect(await serverRequests(page)).toBe(1);
    await axe(page, `update found by the clock ${lang}`);
    await page.screenshot({ path: `${SHOTS}/update-found-by-clock-${lang}.png` });
    await page.getByTestId("update-later").click();
    await expect(dialog).toHaveCount(0);
  });

  test(`the Settings switch turns checks on and off; off makes no request (${lang})`, async ({ page }) => {
    await page.goto(`./?lang=${lang}&updates=undecided&update=0.2.0#chat`);
    await expect(page.getByTestId("composer")).toBeVisible();
    await page.getByTestId("nav-settings").click();
    const toggle = page.getByTestId("settings-updates");
    await expect(page.getByText(w.switch)).toBeVisible();
    // Undecided shows off; "Check now" is off with it.
    await expect(toggle).not.toBeChecked();
    await expect(page.getByTestId("settings-update-check")).toBeDisabled();
    await axe(page, `settings updates ${lang}`);
    await toggle.check();
    await expect.poll(() => choice(page)).toBe("ask");
    await page.getByTestId("settings-update-check").click();
    await expect(page.getByTestId("update-dialog").getByRole("heading").first()).toHaveText(w.title);
    expect(await serverRequests(page)).toBe(1);
    await page.getByTestId("update-later").click();
    await toggle.uncheck();
    await expect.poll(() => choice(page)).toBe("off");
    await expect(page.getByTestId("settings-update-check")).toBeDisabled();
    expect(await serverRequests(page)).toBe(1);
  });

  test(`a manifest without this platform is refused in words (${lang})`, async ({ page }) => {
    await page.goto(`./?lang=${lang}&updates=ask&update=other#chat`);
    await expect(page.getByTestId("composer")).toBeVisible();
    await page.getByTestId("nav-settings").click();
    await page.getByTestId("settings-update-check").click();
    const answer = page.getByTestId("settings-update-answer").getByRole("alert");
    await expect(answer).toContainText(w.noBuild);
    await expect(answer).toContainText(w.nothingChanged);
    await axe(page, `update no build ${lang}`);
  });
}

test("without a choice no request is made at start", async ({ page }) => {
  await page.goto("./?lang=en&updates=undecided&update=0.2.0#chat");
  await expect(page.getByTestId("composer")).toBeVisible();
  await expect(page.getByTestId("update-dialog")).toHaveCount(0);
  expect(await serverRequests(page)).toBe(0);
});
