// The chat screen in a real browser over the mocked shell: streaming, stop and retry,
// approvals, a model error's fix, the plan and skill badge, keyboard use.
import { expect, test } from "@playwright/test";
import { SHOTS, send } from "./support";

test("a message streams in as Markdown", async ({ page }) => {
  await page.goto("./?lang=en&delay=40#chat");
  await send(page, "Work has been stressful lately");
  await expect(page.getByTestId("msg-user")).toHaveText("Work has been stressful lately");
  const reply = page.getByTestId("msg-assistant");
  await expect(page.getByTestId("stop")).toBeVisible();
  await expect(reply).toContainText("先喘口气");
  // The new conversation is in the list while its first reply still streams.
  await expect(page.getByTestId("conversation-item")).toHaveCount(1, { timeout: 1_500 });
  await expect(page.getByTestId("stop")).toBeVisible({ timeout: 100 });
  const partial = (await reply.innerText()).length;
  await page.screenshot({ path: `${SHOTS}/chat-streaming.png` });
  await expect(reply).toContainText("Take it one step at a time", { timeout: 15_000 });
  expect((await reply.innerText()).length).toBeGreaterThan(partial);
  await expect(reply.locator("h2")).toHaveText("先喘口气");
  await expect(reply.locator("table tr")).toHaveCount(3);
  await expect(reply.locator("pre code")).toContainText("print(sum(mood.values())");
  await expect(reply.locator("details.reasoning")).not.toHaveAttribute("open");
  await expect(page.getByTestId("send")).toBeVisible();
  await expect(page.getByTestId("conversation-item")).toHaveCount(1);
  await page.screenshot({ path: `${SHOTS}/chat-done.png` });
});

test("Esc stops a reply, it stays as stopped, and retry answers again", async ({ page }) => {
  await page.goto("./?lang=en&delay=60#chat");
  await send(page, "Work has been stressful lately");
  const first = page.getByTestId("msg-assistant").first();
  await expect(first).toContainText("先喘口气");
  await page.keyboard.press("Escape");
  await expect(first).toContainText("Stopped");
  const kept = await first.innerText();
  expect(kept).not.toContain("Take it one step");
  await expect(page.getByTestId("retry")).toBeVisible();
  await page.getByTestId("retry").click();
  await expect(page.getByTestId("msg-assistant")).toHaveCount(2);
  await expect(page.getByTestId("stop")).toBeVisible();
  await page.getByTestId("stop").click();
  await expect(page.getByTestId("msg-assistant").nth(1)).toContainText("Stopped");
  await page.getByTestId("retry").click();
  await expect(page.getByTestId("msg-assistant").nth(2)).toContainText("Take it one step at a time", { timeout: 15_000 });
  await expect(page.getByTestId("msg-user")).toHaveCount(1);
  await expect(first).toContainText("先喘口气");
});

test("Stop works before the reply's first event, under the run id the UI sent", async ({ page }) => {
  await page.goto("./?lang=en&startDelay=3000#chat");
  await send(page, "Work has been stressful lately");
  // Nothing has come back yet, and Stop is already there.
  await expect(page.getByTestId("stop")).toBeVisible();
  await expect(page.getByTestId("msg-assistant")).toHaveCount(0);
  await page.getByTestId("stop").click();
  await expect(page.getByTestId("send")).toBeVisible();
  await expect(page.getByTestId("failure-stop")).toHaveCount(0);
  const calls = await page.evaluate(() => window.__vibeMock.fromWebview);
  const sent = JSON.parse(calls.find((c) => c.cmd === "send_message")!.args).request.run_id as string;
  const stopped = JSON.parse(calls.find((c) => c.cmd === "cancel_run")!.args).request.run_id as string;
  expect(sent).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-7/);
  expect(stopped).toBe(sent);
  // Stopped before it started: nothing is kept, and the composer is free for the next message.
  await expect(page.getByTestId("msg-assistant")).toHaveCount(0);
  await expect(page.getByTestId("composer")).toBeEditable();
});

test("an approval granted runs the tool", async ({ page }) => {
  await page.goto("./?lang=en&delay=10#chat");
  await send(page, "用脚本看看我的打卡天数");
  const dialog = page.getByTestId("approval-dialog");
  await expect(dialog).toBeVisible();
  await expect(dialog).toContainText("run_script");
  await expect(page.getByTestId("approve")).toBeFocused();
  await page.screenshot({ path: `${SHOTS}/approval.png` });
  await page.getByTestId("approve").click();
  await expect(dialog).toHaveCount(0);
  const reply = page.getByTestId("msg-assistant");
  await expect(reply).toContainText("脚本跑完了");
  await expect(page.getByTestId("skill-badge")).toContainText("habits");
  const tool = page.getByTestId("tool-activity").filter({ hasText: "run_script" });
  await expect(tool).toContainText("done");
  await tool.locator("summary").click();
  await expect(tool).toContainText("streak: 5 days");
});

test("a connection's tool names its server and hints, and can be allowed always", async ({ page }) => {
  await page.goto("./?lang=en&delay=10#chat");
  await send(page, "what is on my calendar tomorrow?");
  const dialog = page.getByTestId("approval-dialog");
  await expect(dialog).toBeVisible();
  await expect(page.getByTestId("approval-connection")).toContainText("calendar");
  await expect(page.getByTestId("approval-hints")).toContainText("only reads");
  await expect(page.getByTestId("approval-hints")).toContainText("reaches the internet");
  await page.getByTestId("always-allow").click();
  await expect(dialog).toHaveCount(0);
  const calls = await page.evaluate(() => window.__vibeMock.fromWebview);
  const answer = JSON.parse(calls.find((c) => c.cmd === "resolve_approval")!.args).request;
  expect(answer).toMatchObject({ approved: true, always: true });
  const tool = page.getByTestId("tool-activity").filter({ hasText: "Used list_events of the connection calendar" });
  await expect(tool).toContainText("done");
});

test("an approval denied shows the tool as denied", async ({ page }) => {
  await page.goto("./?lang=en&delay=10#chat");
  await send(page, "用脚本看看我的打卡天数");
  await expect(page.getByTestId("approval-dialog")).toBeVisible();
  await page.getByTestId("deny").click();
  await expect(page.getByTestId("approval-dialog")).toHaveCount(0);
  await expect(page.getByTestId("tool-activity").filter({ hasText: "run_script" })).toContainText("denied");
  await expect(page.getByTestId("send")).toBeVisible();
});

test("a model error shows its fix and leads to Settings", async ({ page }) => {
  await page.goto("./?lang=en&delay=10#chat");
  await send(page, "出错测试");
  const banner = page.getByTestId("error-banner");
  await expect(banner).toBeVisible();
  await expect(banner).toContainText("No model is reachable");
  await expect(banner).toContainText("127.0.0.1:9");
  await page.screenshot({ path: `${SHOTS}/model-error.png` });
  await banner.getByRole("button", { name: "Open Settings" }).click();
  await expect(page.getByTestId("settings-base-url")).toBeVisible();
});

test("a failed command shows its hint in the app's words, naming the screen that fixes it", async ({ page }) => {
  await page.goto("./?lang=zh-CN&sendFails=endpoint#chat");
  await send(page, "你好");
  const banner = page.getByTestId("error-banner");
  await expect(banner).toContainText("connection refused");
  await expect(banner.getByTestId("error-hint")).toHaveText(
    "请打开「设置」，检查服务地址 http://127.0.0.1:9/v1，确认模型服务正在运行，然后点「测试连接」。",
  );
  await page.screenshot({ path: `${SHOTS}/command-error-hint.png` });
  await page.getByTestId("error-banner").getByRole("button", { name: "打开设置" }).click();
  await expect(page.getByTestId("settings-base-url")).toBeVisible();
});

test("the plan checklist and the skill badge show", async ({ page }) => {
  await page.goto("./?lang=zh-CN&delay=10#chat");
  await send(page, "帮我做个计划");
  const plan = page.getByTestId("plan");
  await expect(plan).toContainText("理清工作压力");
  await expect(plan.locator("li")).toHaveCount(3);
  await expect(plan).toContainText("进行中");
  // The skill's display name in the UI's language, not its folder name.
  await expect(page.getByTestId("skill-badge")).toHaveText("✨ 已激活人生教练");
  await expect(page.getByTestId("msg-assistant")).toContainText("今天就能推进");
  await expect(page.getByTestId("nav-settings")).toHaveText("设置");
  await page.screenshot({ path: `${SHOTS}/plan-zh.png` });
});

test("Shift+Enter makes a new line and Enter sends", async ({ page }) => {
  await page.goto("./?lang=en&delay=5#chat");
  const composer = page.getByTestId("composer");
  await composer.fill("line one");
  await composer.press("Shift+Enter");
  await composer.pressSequentially("line two");
  await expect(composer).toHaveValue("line one\nline two");
  await composer.press("Enter");
  await expect(page.getByTestId("msg-user")).toHaveText("line one\nline two");
  await expect(composer).toHaveValue("");
});

test("a message at risk shows the crisis contacts beside a supportive reply, and they stay in reach", async ({ page }) => {
  await page.goto("./?lang=zh-CN&delay=10#chat");
  await send(page, "我真的不想活了，已经想好怎么做了");
  const notice = page.getByTestId("safety-notice");
  await expect(notice).toBeVisible();
  await expect(notice).toHaveAttribute("role", "alert");
  await expect(notice).toContainText("如果你正在想结束自己的生命");
  await expect(notice.getByTestId("safety-resource").filter({ hasText: "全国心理援助热线" })).toContainText("12356");
  await expect(page.getByTestId("msg-assistant")).toContainText("你不必一个人扛着");
  await page.screenshot({ path: `${SHOTS}/safety-notice.png` });

  // Folded, the notice keeps one line and opens again; a later message does not remove it.
  await notice.getByRole("button", { name: "收起" }).click();
  await expect(notice.getByTestId("safety-resource")).toHaveCount(0);
  await send(page, "Work has been stressful lately");
  await expect(page.getByTestId("msg-assistant").nth(1)).toContainText("Take it one step at a time", { timeout: 15_000 });
  await notice.getByRole("button", { name: "显示求助电话" }).click();
  await expect(notice.getByTestId("safety-resource")).toHaveCount(4);

  // Opened again, the conversation shows its notice again: folded, as the person wrote on.
  await page.getByTestId("new-conversation").click();
  await expect(page.getByTestId("safety-notice")).toHaveCount(0);
  await page.getByTestId("conversation-item").first().click();
  await expect(page.getByTestId("msg-user")).toHaveCount(2);
  await expect(notice).toContainText("你很重要");
  await expect(notice).toHaveAttribute("role", "status");
  await expect(notice.getByTestId("safety-resource")).toHaveCount(0);
  await notice.getByRole("button", { name: "显示求助电话" }).click();
  await expect(notice.getByTestId("safety-resource").filter({ hasText: "全国心理援助热线" })).toContainText("12356");
});

test("a conversation whose last message was at risk opens with its crisis contacts shown", async ({ page }) => {
  await page.goto("./?lang=en&delay=5#chat");
  await send(page, "我真的不想活了");
  await expect(page.getByTestId("msg-assistant")).toContainText("你不必一个人扛着");
  await page.getByTestId("new-conversation").click();
  await expect(page.getByTestId("safety-notice")).toHaveCount(0);
  await page.getByTestId("conversation-item").first().click();
  const notice = page.getByTestId("safety-notice");
  await expect(notice).toHaveAttribute("role", "alert");
  await expect(notice.getByTestId("safety-resource").filter({ hasText: "12356" })).toBeVisible();
  await expect(notice.getByRole("button", { name: "Fold" })).toBeVisible();
  await page.screenshot({ path: `${SHOTS}/safety-notice-reopened.png` });
});
