// Coaching protocols over the mocked shell: the invitation's choice goes back as a structured
// choice (Start: a turn in which the coach asks the first question; Later: a command), the
// progress bar follows each step to the completion card, the report exports in every
// format, and the Protocols screen lists runs by status (resume, export).
import { expect, test, type Page } from "@playwright/test";
import { SHOTS, send } from "./support";

async function invite(page: Page) {
  await send(page, "我想重置一下我的生活");
  const card = page.getByTestId("protocol-invitation");
  // The card speaks the UI's language where the protocol file has the words.
  const english = (await page.locator("html").getAttribute("lang")) === "en";
  await expect(card.locator("h3")).toHaveText(english ? "One-Day Life Reset" : "一日人生重置");
  await expect(card).toContainText(english ? "After Dan Koe's" : "参考 Dan Koe 的");
  await expect(card).toContainText(english ? "Time: Morning, daytime and evening of one day" : "一天内分早、中、晚完成");
  await expect(page.getByTestId("protocol-start")).toBeEnabled({ timeout: 15_000 });
  return card;
}

test("accepting an invitation runs the protocol to its completion card", async ({ page }) => {
  await page.goto("./?lang=en&delay=5#chat");
  await invite(page);
  await page.screenshot({ path: `${SHOTS}/protocol-invitation.png` });
  await page.getByTestId("protocol-start").click();
  const calls = await page.evaluate(() => window.__vibeMock.fromWebview.filter((c) => c.cmd === "send_message"));
  expect(JSON.parse(calls.at(-1)?.args ?? "{}").request.input).toEqual({ type: "choose", protocol_id: "dankoe", choice: "start", label: "开始" });
  // The coach asks the first step's question at once, after the button's words.
  await expect(page.getByTestId("msg-assistant").last()).toContainText("第一步「觉察痛点」");
  await expect(page.getByTestId("msg-user").last()).toHaveText("开始");
  const bar = page.getByTestId("protocol-progress");
  await expect(page.getByTestId("protocol-invitation")).toHaveCount(0);
  await expect(bar).toHaveAttribute("aria-valuenow", "1");
  await expect(bar).toHaveAttribute("aria-valuemax", "6");
  await expect(bar).toHaveAttribute("role", "progressbar");
  await expect(page.getByText("Step 1 of 6 · Morning")).toBeVisible();
  for (let step = 2; step <= 6; step++) {
    await send(page, `answer ${step - 1}`);
    await expect(bar).toHaveAttribute("aria-valuenow", String(step));
    await expect(page.getByTestId("send")).toBeVisible();
    if (step === 4) {
      // The steps' English names, as the protocol file writes them for an English UI.
      await expect(page.locator(".protocol-step[aria-current=step]")).toHaveText("4Break the autopilot");
      await expect(page.getByText("Step 4 of 6 · Daytime")).toBeVisible();
      await page.screenshot({ path: `${SHOTS}/protocol-progress.png` });
      await page.emulateMedia({ colorScheme: "dark" });
      await page.screenshot({ path: `${SHOTS}/protocol-progress-dark.png` });
      await page.emulateMedia({ colorScheme: "light" });
    }
  }
  await send(page, "answer 6");
  const done = page.getByTestId("protocol-complete");
  await expect(done).toContainText("Protocol complete");
  // The person's own answers, step by step, not the model's summary of them.
  await expect(done.getByTestId("protocol-answer")).toHaveCount(6);
  await expect(done.getByTestId("protocol-answer").first()).toContainText("Name the pain");
  await expect(done.getByTestId("protocol-answer").first()).toContainText("answer 1");
  await expect(done.getByTestId("protocol-answer").last()).toContainText("answer 6");
  // Each answer under the label written for the person, in the UI's language.
  await expect(done.getByTestId("protocol-answer").first().locator("dt")).toHaveText("Your answer");
  await expect(done).not.toContainText("人生地图");
  await expect(bar).toHaveCount(0);
  await page.screenshot({ path: `${SHOTS}/protocol-complete.png` });
});

test("a report exports in every format through the shell's save dialog", async ({ page }) => {
  await page.goto("./?lang=en&delay=0#chat");
  await invite(page);
  await page.getByTestId("protocol-start").click();
  for (let i = 1; i <= 6; i++) {
    await send(page, `answer ${i}`);
    await expect(page.getByTestId("send")).toBeVisible();
  }
  const done = page.getByTestId("protocol-complete");
  await expect(done).toBeVisible();
  for (const f of ["md", "html", "json", "pdf"]) {
    await page.getByTestId(`export-${f}`).click();
    await expect(done.getByRole("status")).toContainText(`Saved to /home/me/Documents/protocol-0193a2b4.${f}`);
  }
  const exports = await page.evaluate(() =>
    window.__vibeMock.fromWebview.filter((c) => c.cmd === "export_protocol_report").map((c) => JSON.parse(c.args).request),
  );
  expect(exports.map((r) => r.format)).toEqual(["md", "html", "json", "pdf"]);
  expect(new Set(exports.map((r) => r.run_id)).size).toBe(1);
});

test("a conversation opened again shows its active protocol's progress", async ({ page }) => {
  await page.goto("./?lang=en&delay=0#chat");
  await invite(page);
  await page.getByTestId("protocol-start").click();
  for (let i = 1; i <= 2; i++) {
    await send(page, `answer ${i}`);
    await expect(page.getByTestId("protocol-progress")).toHaveAttribute("aria-valuenow", String(i + 1));
    await expect(page.getByTestId("send")).toBeVisible();
  }
  await page.getByTestId("new-conversation").click();
  await expect(page.getByTestId("protocol-progress")).toHaveCount(0);
  await page.getByTestId("conversation-item").first().click();
  await expect(page.getByTestId("protocol-progress")).toHaveAttribute("aria-valuenow", "3");
  await expect(page.getByText("Step 3 of 6")).toBeVisible();
  // Named at once (the stored run names its steps), not "Step 3" until the next event.
  await expect(page.locator(".protocol-step[aria-current=step]")).toHaveText("3Minimum viable vision");
  await send(page, "answer 3");
  await expect(page.getByTestId("protocol-progress")).toHaveAttribute("aria-valuenow", "4");
  await expect(page.locator(".protocol-step[aria-current=step]")).toHaveText("4Break the autopilot");
});

test("in Chinese the bar and the completion card name the steps as the protocol writes them", async ({ page }) => {
  await page.goto("./?lang=zh-CN&delay=0#chat");
  await invite(page);
  await page.getByTestId("protocol-start").click();
  await expect(page.locator(".protocol-step[aria-current=step]")).toHaveText("1觉察痛点");
  await expect(page.locator(".protocol-step").last()).toHaveText("6游戏计划");
  for (let step = 1; step <= 6; step++) {
    await expect(page.getByTestId("send")).toBeVisible();
    await send(page, `回答 ${step}`);
  }
  const done = page.getByTestId("protocol-complete");
  await expect(done.getByTestId("protocol-answer").first()).toContainText("觉察痛点");
  await expect(done.getByTestId("protocol-answer").first().locator("dt")).toHaveText("你的回答");
});

test("a message at risk pauses the protocol; it resumes from the chat, also after the conversation is opened again", async ({ page }) => {
  await page.goto("./?lang=zh-CN&delay=0#chat");
  await invite(page);
  await page.getByTestId("protocol-start").click();
  const bar = page.getByTestId("protocol-progress");
  await expect(bar).toHaveAttribute("aria-valuenow", "1");
  await send(page, "回答 1");
  await expect(bar).toHaveAttribute("aria-valuenow", "2");
  await send(page, "我真的不想活了，已经想好怎么做了");
  await expect(page.getByTestId("safety-notice")).toBeVisible();
  // The next question waits: the bar stays on step 2, paused, with its Resume button right here.
  const paused = page.getByTestId("protocol-paused");
  await expect(paused).toContainText("已暂停。问题会等你准备好再继续");
  await expect(page.getByText("第 2 步，共 6 步 · 早上 · 已暂停")).toBeVisible();
  await expect(bar).toHaveAttribute("aria-valuenow", "2");
  await page.screenshot({ path: `${SHOTS}/protocol-paused-zh.png` });
  // A later message is not taken as the step's answer while it is paused.
  await send(page, "今天好一点了");
  await expect(page.getByTestId("msg-assistant").last()).toContainText("先喘口气", { timeout: 15_000 });
  await expect(bar).toHaveAttribute("aria-valuenow", "2");

  // Opened again, the conversation shows its paused run where the person left it.
  await expect(page.getByTestId("send")).toBeVisible({ timeout: 15_000 });
  await page.getByTestId("new-conversation").click();
  await expect(paused).toHaveCount(0);
  await page.getByTestId("conversation-item").first().click();
  await expect(paused).toBeVisible();
  await expect(page.getByTestId("protocol-resume-here")).toHaveText("在这里继续");
  await page.getByTestId("protocol-resume-here").click();
  await expect(paused).toHaveCount(0);
  await expect(page.getByText("第 2 步，共 6 步 · 早上")).toBeVisible();
  await send(page, "回答 2");
  await expect(bar).toHaveAttribute("aria-valuenow", "3");
});

test("later declines the invitation with a command, not a message", async ({ page }) => {
  await page.goto("./?lang=zh-CN&delay=0#chat");
  await invite(page);
  await expect(page.getByTestId("protocol-later")).toHaveText("稍后再说");
  await page.getByTestId("protocol-later").click();
  await expect(page.getByTestId("protocol-invitation")).toHaveCount(0);
  await expect(page.getByText("好的，稍后再说")).toBeVisible();
  const cmds = await page.evaluate(() => window.__vibeMock.fromWebview.map((c) => c.cmd));
  expect(cmds.filter((c) => c === "send_message")).toHaveLength(1);
  expect(cmds).toContain("later_protocol");
});

test("a next message that does not agree lets the invitation lapse; nothing starts", async ({ page }) => {
  await page.goto("./?lang=zh-CN&delay=0#chat");
  await invite(page);
  await send(page, "你好");
  const lapsed = page.getByTestId("protocol-invitation-lapsed");
  await expect(lapsed).toContainText("邀请已失效");
  await expect(lapsed).toContainText("一日人生重置");
  await expect(page.getByTestId("protocol-invitation")).toHaveCount(0);
  await expect(page.getByTestId("protocol-start")).toHaveCount(0);
  await expect(page.getByTestId("protocol-progress")).toHaveCount(0);
  await page.screenshot({ path: `${SHOTS}/protocol-lapsed.png` });
});

test("the Protocols screen lists runs by status: resume a paused one, export a completed one", async ({ page }) => {
  await page.goto("./?lang=en&delay=0#chat");
  await page.getByTestId("nav-protocols").click();
  const runs = page.getByTestId("protocol-run");
  await expect(runs).toHaveCount(3);
  await expect(page.getByRole("region", { name: "Completed" })).toContainText("One-Day Life Reset");
  await expect(page.getByRole("region", { name: "Cancelled" })).toContainText("Reason: 太累了，改天再说");
  await page.screenshot({ path: `${SHOTS}/protocols.png`, fullPage: true });
  await page.getByTestId("protocol-resume").click();
  const active = page.getByRole("region", { name: "Active" });
  await expect(active).toContainText("Weekly Review");
  await expect(active).toContainText("Step 2 of 4");
  await expect(page.getByTestId("protocol-resume")).toHaveCount(0);
  await page.getByRole("region", { name: "Completed" }).getByTestId("export-pdf").click();
  await expect(page.getByRole("status")).toContainText("Saved to /home/me/Documents/protocol-0193a2b4.pdf");
  const exported = await page.evaluate(() =>
    window.__vibeMock.fromWebview.filter((c) => c.cmd === "export_protocol_report").map((c) => JSON.parse(c.args).request),
  );
  expect(exported).toEqual([{ run_id: "0193a2b4-done", format: "pdf" }]);

  await page.goto("./?lang=zh-CN&delay=0#chat");
  await page.getByTestId("nav-protocols").click();
  await expect(page.getByRole("region", { name: "已完成" })).toContainText("一日人生重置");
  await page.screenshot({ path: `${SHOTS}/protocols-zh.png`, fullPage: true });
});
