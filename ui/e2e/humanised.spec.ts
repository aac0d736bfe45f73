// The conversation, humanised (issue 31): each built-in tool's activity reads as a short line in
// the person's language; the raw call (name, arguments, result) only in its expandable details.
import { expect, test, type Page } from "@playwright/test";
import { SHOTS, send } from "./support";

async function startDankoe(page: Page) {
  await send(page, "我想重置一下我的生活");
  await expect(page.getByTestId("protocol-start")).toBeEnabled({ timeout: 15_000 });
  await page.getByTestId("protocol-start").click();
  await expect(page.getByTestId("protocol-progress")).toHaveAttribute("aria-valuenow", "1");
}

test("a protocol step reads as the step saved and the next one, the raw call only in its details", async ({ page }) => {
  await page.goto("./?lang=zh-CN&delay=0#chat");
  await startDankoe(page);
  await send(page, "每天都很累，想要安全感");
  const tool = page.getByTestId("tool-activity").filter({ hasText: "记下了第 1 步" });
  await expect(tool.locator("summary")).toHaveText(/^记下了第 1 步，接下来：反愿景完成$/);
  await expect(tool.locator("summary")).not.toContainText("advance_protocol_step");
  await expect(tool.getByText("advance_protocol_step")).toBeHidden();
  await tool.locator("summary").click();
  await expect(tool.getByText("advance_protocol_step")).toBeVisible();
  await expect(tool).toContainText("每天都很累，想要安全感");
  await tool.locator("summary").click();
  await send(page, "十年后仍在加班");
  await expect(page.getByTestId("tool-activity").filter({ hasText: "记下了第 2 步，接下来：最小可行愿景" })).toBeVisible();
  // Tall enough for the whole conversation, so the picture has no message cut at its top.
  await page.setViewportSize({ width: 1100, height: 900 });
  await page.emulateMedia({ colorScheme: "light" });
  await page.screenshot({ path: `${SHOTS}/conversation-humanised-light.png` });
  await page.emulateMedia({ colorScheme: "dark" });
  await page.screenshot({ path: `${SHOTS}/conversation-humanised-dark.png` });
});

test("in English the lines are English: the skill opened, the plan, the step saved", async ({ page }) => {
  await page.goto("./?lang=en&delay=0#chat");
  await send(page, "make a plan for my week");
  await expect(page.getByTestId("tool-activity").filter({ hasText: "Updated the plan" })).toBeVisible();
  await expect(page.getByTestId("tool-activity").filter({ hasText: /^▸?Opened the skill / })).toHaveCount(1);
  await expect(page.getByTestId("tool-activity").locator("summary").filter({ hasText: "use_skill" })).toHaveCount(0);
  await page.getByTestId("new-conversation").click();
  await startDankoe(page);
  await send(page, "answer 1");
  // The next step by its English name (the protocol has one), not the Chinese title the model reads.
  await expect(page.getByTestId("tool-activity").filter({ hasText: "Saved step 1 — next: Anti-vision" })).toBeVisible();
  await page.screenshot({ path: `${SHOTS}/conversation-humanised-en.png` });
});
