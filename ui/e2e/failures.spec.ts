// Failures that used to be dropped silently, now shown in the screen that failed, in the UI's
// language (the mock's `?fail=cmd` makes a command fail as a locked database does); and the
// chat's lines from the app store: the tokens a reply used, skill folders changed on disk.
import { expect, test } from "@playwright/test";
import { SHOTS, send } from "./support";

for (const [lang, what, close] of [
  ["en", "Your conversations could not be read or changed.", "Close"],
  ["zh-CN", "未能读取或修改你的对话。", "关闭"],
] as const) {
  test(`a conversation list that cannot be read says so (${lang})`, async ({ page }) => {
    await page.goto(`./?lang=${lang}&fail=list_conversations#chat`);
    const line = page.getByTestId("failure-conversations");
    await expect(line).toBeVisible();
    await expect(line).toContainText(what);
    await expect(line).toContainText("list_conversations: database is locked");
    await page.screenshot({ path: `${SHOTS}/failure-conversations-${lang}.png` });
    await line.getByRole("button", { name: close }).click();
    await expect(line).toHaveCount(0);
  });
}

test("a Stop the shell refuses is shown, not swallowed", async ({ page }) => {
  await page.goto("./?lang=zh-CN&delay=60&fail=cancel_run#chat");
  await send(page, "最近工作压力很大");
  await expect(page.getByTestId("stop")).toBeVisible();
  // While the reply is made, the status line says what the coach is doing (its context phase).
  await expect(page.getByTestId("run-status")).toHaveText("正在为这条消息选择技能…");
  await page.getByTestId("stop").click();
  await expect(page.getByTestId("failure-stop")).toContainText("未能停止这条回复。");
  await expect(page.getByTestId("failure-stop")).toContainText("cancel_run: database is locked");
  await page.screenshot({ path: `${SHOTS}/failure-stop-zh.png` });
});

test("a chart the core cannot compute says so in Me", async ({ page }) => {
  await page.goto("./?lang=en&fail=compute_chart#chat");
  await page.getByTestId("nav-me").click();
  await expect(page.getByTestId("chart-failure")).toContainText("A chart could not be computed.");
  await expect(page.getByTestId("chart-failure")).toContainText("compute_chart: database is locked");
});

test("reminders and the skills' live refresh that fail are shown where they belong", async ({ page }) => {
  await page.goto("./?lang=en&fail=reminder_notices,watch_skills#chat");
  await expect(page.getByTestId("failure-reminders")).toContainText("Your reminders could not be read.");
  await page.getByTestId("nav-skills").click();
  await expect(page.getByTestId("failure-skills")).toContainText("Live refresh is off: changes on disk show after Reload.");
  // The rest of the screen works: the index is there.
  await expect(page.getByTestId("skill-row")).toHaveCount(5);
  await page.screenshot({ path: `${SHOTS}/failure-skills-en.png` });
});

test("the chat shows the tokens of the last reply and skill folders changed on disk", async ({ page }) => {
  await page.goto("./?lang=zh-CN&delay=5#chat");
  await send(page, "最近工作压力很大");
  await expect(page.getByTestId("send")).toBeVisible({ timeout: 15_000 });
  await expect(page.getByTestId("run-status")).toHaveText("上一条回复：共 976 个 token（读取 812，生成 164）");
  await page.evaluate(() => window.__vibeMock.editSkill("journal-helper", true, true));
  const notice = page.getByTestId("chat-skill-changes");
  await expect(notice).toContainText("磁盘上的技能文件夹有变动：journal-helper 已更新。");
  await page.screenshot({ path: `${SHOTS}/chat-status-zh.png` });
  await page.emulateMedia({ colorScheme: "dark" });
  await page.screenshot({ path: `${SHOTS}/chat-status-zh-dark.png` });
  await notice.getByRole("button", { name: "知道了" }).click();
  await expect(notice).toHaveCount(0);
});
