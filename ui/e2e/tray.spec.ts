// The tray over the mocked shell: the first-close dialog (sent by the shell as the DOM event
// `vibelife:close-requested` when `preferences.on_close` is "ask") in both languages, with
// axe-core; its answer saved in the core's settings before the shell is asked to close; Escape
// keeping the window; the Settings switches (keep running in the tray, start at login) saving
// at once; and the tray's "Today's reminders" turning an open window to Today.
import { expect, test, type Page } from "@playwright/test";
import { axe, SHOTS } from "./support";

const closeButton = (page: Page) => page.evaluate(() => window.dispatchEvent(new Event("vibelife:close-requested")));
const onClose = (page: Page) => page.evaluate(() => window.__vibeMock.settings.preferences.on_close);
const closed = (page: Page) => page.evaluate(() => window.__vibeMock.windowClosed);

const WORDS = {
  en: { title: "Keep VibeLife running?", tray: "Keep running in the tray", quit: "Quit" },
  "zh-CN": { title: "让 VibeLife 继续运行吗？", tray: "在托盘中继续运行", quit: "退出" },
} as const;

for (const lang of ["en", "zh-CN"] as const) {
  test(`the first close asks, and "keep running in the tray" is saved before the window closes (${lang})`, async ({ page }) => {
    await page.goto(`./?lang=${lang}#chat`);
    await expect(page.getByTestId("composer")).toBeVisible();
    expect(await onClose(page)).toBe("ask");
    await closeButton(page);
    const dialog = page.getByTestId("close-dialog");
    await expect(dialog).toBeVisible();
    await expect(dialog.getByRole("heading")).toHaveText(WORDS[lang].title);
    await expect(page.getByTestId("close-tray")).toHaveText(WORDS[lang].tray);
    await expect(page.getByTestId("close-quit")).toHaveText(WORDS[lang].quit);
    // The safe choice has the focus: Enter keeps VibeLife running.
    await expect(page.getByTestId("close-tray")).toBeFocused();
    await axe(page, `close dialog ${lang}`);
    await page.screenshot({ path: `${SHOTS}/close-dialog-${lang}.png` });
    await page.keyboard.press("Enter");
    await expect(dialog).toHaveCount(0);
    expect(await onClose(page)).toBe("tray");
    expect(await closed(page)).toBe(1);
    // Settings shows the answer, and the switch changes it later.
    await page.getByTestId("nav-settings").click();
    await expect(page.getByTestId("settings-keep-in-tray")).toBeChecked();
  });
}

test("answering quit saves it; Escape keeps the window and asks again next time", async ({ page }) => {
  await page.goto("./?lang=en#chat");
  await expect(page.getByTestId("composer")).toBeVisible();
  await closeButton(page);
  await expect(page.getByTestId("close-dialog")).toBeVisible();
  // A click on the dimmed window takes focus out of the dialog: Escape still answers.
  await page.locator(".modal-backdrop").click({ position: { x: 5, y: 5 } });
  await expect(page.getByTestId("close-dialog")).toBeVisible();
  await page.keyboard.press("Escape");
  await expect(page.getByTestId("close-dialog")).toHaveCount(0);
  expect(await closed(page)).toBe(0);
  expect(await onClose(page)).toBe("ask");
  await closeButton(page);
  await page.getByTestId("close-quit").click();
  await expect(page.getByTestId("close-dialog")).toHaveCount(0);
  expect(await onClose(page)).toBe("quit");
  expect(await closed(page)).toBe(1);
});

for (const lang of ["en", "zh-CN"] as const) {
  test(`the tray and start-at-login switches save at once (${lang})`, async ({ page }) => {
    await page.goto(`./?lang=${lang}#settings`);
    const section = page.getByTestId("settings-desktop");
    await expect(section).toContainText(lang === "en" ? "On this computer" : "在这台电脑上");
    const tray = page.getByTestId("settings-keep-in-tray");
    const login = page.getByTestId("settings-autostart");
    // Not chosen yet shows off; start at login is off by default.
    await expect(tray).not.toBeChecked();
    await expect(login).not.toBeChecked();
    await tray.check();
    await expect(tray).toBeChecked();
    expect(await onClose(page)).toBe("tray");
    await login.check();
    await expect(login).toBeChecked();
    expect(await page.evaluate(() => window.__vibeMock.autostart)).toBe(true);
    await axe(page, `settings desktop ${lang}`);
    await section.screenshot({ path: `${SHOTS}/settings-desktop-${lang}.png` });
    await tray.uncheck();
    expect(await onClose(page)).toBe("quit");
    await login.uncheck();
    expect(await page.evaluate(() => window.__vibeMock.autostart)).toBe(false);
  });
}

test("the tray's Today's reminders turns an open window to Today", async ({ page }) => {
  await page.goto("./?lang=en#journal");
  await expect(page.getByTestId("nav-journal")).toHaveAttribute("aria-current", "true");
  await page.evaluate(() => (location.hash = "#today"));
  await expect(page.getByTestId("nav-today")).toHaveAttribute("aria-current", "true");
});
