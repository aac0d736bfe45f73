// Reminders over the mocked shell: the reminder card (the way to a notified question, since
// the Linux notification cannot report a click) seen from any screen, opening its conversation
// at the question and gone once answered; the reminder settings (off switch, quiet hours, a
// refused value); and the preferences in "Me" (voice, language, reminder times).
import { expect, test, type Page } from "@playwright/test";

const SHOTS = "test-results/screenshots";

const calls = (page: Page, cmd: string) =>
  page.evaluate((c) => window.__vibeMock.fromWebview.filter((x) => x.cmd === c).map((x) => JSON.parse(x.args).request), cmd);

test("a notified reminder's card opens its conversation at the question, and answering closes it", async ({ page }) => {
  await page.goto("./?lang=zh-CN&reminder=1#chat");
  await page.getByTestId("nav-me").click();
  const card = page.getByTestId("reminder-card");
  await expect(card).toContainText("提醒 · 15:15");
  await expect(card).toContainText("你现在做的事，是在靠近愿景，还是靠近反愿景？");
  await page.getByTestId("nav-skills").click();
  await expect(card).toBeVisible();
  await page.screenshot({ path: `${SHOTS}/reminder-card.png` });
  await page.emulateMedia({ colorScheme: "dark" });
  await page.screenshot({ path: `${SHOTS}/reminder-card-dark.png` });
  await page.emulateMedia({ colorScheme: "light" });
  // Keyboard: the card's button is reachable and opens the chat with the composer focused.
  await page.getByTestId("reminder-open").focus();
  await page.keyboard.press("Enter");
  await expect(page.getByTestId("msg-assistant").first()).toContainText("第 4 步");
  const question = page.getByTestId("reminder-question");
  await expect(question).toContainText("15:15 的提醒");
  await expect(question).toContainText("靠近愿景");
  await expect(page.getByTestId("composer")).toBeFocused();
  await expect(card).toHaveCount(0);
  await page.keyboard.type("在刷手机，靠近反愿景");
  await page.keyboard.press("Enter");
  await expect(question).toHaveCount(0);
  const sent = await calls(page, "send_message");
  expect(sent.at(-1)).toMatchObject({ conversation_id: "conv-reminder", input: { type: "say", text: "在刷手机，靠近反愿景" } });
  // The core now answers no open reminder: the card does not come back.
  await page.evaluate(() => window.dispatchEvent(new Event("focus")));
  await expect.poll(async () => (await calls(page, "reminder_notices")).length).toBeGreaterThan(1);
  await expect(card).toHaveCount(0);
});

test("a notification's \"answer now\" opens the question, in a new window and in an open one", async ({ page }) => {
  // A window the shell made for the notification's action starts on the reminder's fragment.
  await page.goto("./?lang=zh-CN&reminder=1#reminder=0193a2b4-live/4/15:15");
  const question = page.getByTestId("reminder-question");
  await expect(question).toContainText("15:15 的提醒");
  await expect(question).toContainText("靠近愿景");
  await expect(page.getByTestId("msg-assistant").first()).toContainText("第 4 步");
  await expect(page.getByTestId("composer")).toBeFocused();
  await expect(page.getByTestId("reminder-card"), "not offered twice").toHaveCount(0);
  await page.screenshot({ path: `${SHOTS}/reminder-from-notification.png` });
  // An open window on another screen is turned to it (the shell sets the fragment).
  await page.goto("./?lang=en&reminder=1#settings");
  await expect(page.getByTestId("settings-reminders")).toBeVisible();
  await page.evaluate(() => (location.hash = "#reminder=0193a2b4-live/4/15:15"));
  await expect(page.getByTestId("reminder-question")).toContainText("Reminder at 15:15");
  await expect(page.getByTestId("nav-chat")).toHaveAttribute("aria-current", "true");
});

test("a notification whose reminder was answered meanwhile opens Today", async ({ page }) => {
  await page.goto("./?lang=en#reminder=0193a2b4-live/4/15:15");
  await expect(page.getByTestId("nav-today")).toHaveAttribute("aria-current", "true");
  await expect(page.getByTestId("reminder-question")).toHaveCount(0);
  expect(await page.evaluate(() => location.hash)).toBe("#today");
});

test("a reminder card can be put aside, and no card shows without a notified reminder", async ({ page }) => {
  await page.goto("./?lang=en&reminder=1#chat");
  await expect(page.getByTestId("reminder-card")).toContainText("Reminder · 15:15");
  await page.getByTestId("reminder-hide").click();
  await expect(page.getByTestId("reminder-card")).toHaveCount(0);
  await page.goto("./?lang=en#chat");
  await expect(page.getByTestId("composer")).toBeVisible();
  await expect(page.getByTestId("reminder-card")).toHaveCount(0);
});

test("reminder notifications are turned off and quiet hours set in Settings, through the core's settings", async ({ page }) => {
  await page.goto("./?lang=en#chat");
  await page.getByTestId("nav-settings").click();
  const section = page.getByTestId("settings-reminders");
  await expect(section).toContainText("Show protocol reminders as notifications");
  const notify = page.getByTestId("settings-reminders-notify");
  await expect(notify).toBeChecked();
  await notify.click();
  await expect(notify).not.toBeChecked();
  await notify.click();
  await page.getByTestId("settings-quiet-hours").click();
  await page.getByTestId("settings-quiet-start").fill("22:30");
  await page.getByTestId("settings-quiet-end").fill("07:00");
  await page.getByTestId("settings-quiet-save").click();
  await expect(section.getByRole("status")).toHaveText("Saved.");
  const changes = (await calls(page, "update_settings")).map((r) => r.changes[0]);
  expect(changes).toEqual([
    { key: "preferences.reminders.notify", value: false },
    { key: "preferences.reminders.notify", value: true },
    { key: "preferences.reminders.quiet_hours", value: { start: "22:00", end: "08:00" } },
    { key: "preferences.reminders.quiet_hours", value: { start: "22:30", end: "07:00" } },
  ]);
  // A value the core refuses is shown, and the form keeps what is saved.
  await page.getByTestId("settings-quiet-end").fill("22:30");
  await page.getByTestId("settings-quiet-save").click();
  await expect(section.getByRole("alert")).toContainText("quiet hours start and end at the same time");
  await page.getByTestId("settings-quiet-end").fill("07:00");
  await section.scrollIntoViewIfNeeded();
  await section.screenshot({ path: `${SHOTS}/reminder-settings.png` });
  await page.getByTestId("settings-language").selectOption("zh-CN");
  await page.getByTestId("settings-save").click();
  await expect(section).toContainText("用系统通知显示协议提醒");
  await expect(section).toContainText("免打扰时段");
});

test("preferences in Me: voice, reminder times checked by the core, and the language", async ({ page }) => {
  await page.goto("./?lang=en#chat");
  await page.getByTestId("nav-me").click();
  const prefs = page.getByTestId("me-preferences");
  await prefs.scrollIntoViewIfNeeded();
  await page.getByTestId("pref-voice").selectOption("direct");
  await expect(prefs.getByRole("status")).toHaveText("Saved.");
  await page.getByTestId("pref-times").fill("18:00, 09:30");
  await page.getByTestId("pref-times").press("Enter");
  await expect(prefs.getByRole("alert")).toContainText("later than the time before it");
  await page.getByTestId("pref-times").fill("09:30, 12:00，18:00");
  await page.getByTestId("pref-times-save").click();
  await expect(prefs.getByRole("status")).toHaveText("Saved.");
  const sets = await calls(page, "set_profile_path");
  expect(sets).toEqual([
    { path: "preferences.voice_mode", value: "direct" },
    { path: "preferences.reminder_times", value: ["18:00", "09:30"] },
    { path: "preferences.reminder_times", value: ["09:30", "12:00", "18:00"] },
  ]);
  await prefs.screenshot({ path: `${SHOTS}/me-preferences.png` });
  await page.getByTestId("pref-language").selectOption("zh-CN");
  await expect(prefs).toContainText("教练的语气");
  await expect(page.getByTestId("nav-me")).toHaveText("我");
  await page.emulateMedia({ colorScheme: "dark" });
  await prefs.screenshot({ path: `${SHOTS}/me-preferences-zh-dark.png` });
  const lang = (await calls(page, "update_settings")).map((r) => r.changes[0]);
  expect(lang).toEqual([{ key: "preferences.language", value: "zh-CN" }]);
  // Reopened, Me shows what was stored.
  await page.getByTestId("nav-chat").click();
  await page.getByTestId("nav-me").click();
  await expect(page.getByTestId("pref-times")).toHaveValue("09:30, 12:00, 18:00");
  await expect(page.getByTestId("pref-voice")).toHaveValue("direct");
});
