// A long conversation in a real browser over the mocked shell: only what is in view is in the
// DOM, the end shows on opening, scrolling reaches the first message, a new reply is followed
// while the person is at the bottom and leaves them in place once they scroll up to read.
import { expect, test, type Page } from "@playwright/test";

const SHOTS = "test-results/screenshots";
const inDom = (page: Page) => page.locator('[data-testid="msg-user"], [data-testid="msg-assistant"]').count();
const thread = (page: Page) => page.getByTestId("thread");

async function open(page: Page, delay = 30) {
  await page.goto(`./?lang=en&long=1000&delay=${delay}#chat`);
  await page.getByTestId("conversation-item").getByRole("button", { name: "一千条消息" }).click();
  await expect(page.getByTestId("msg-assistant").last()).toContainText("回复 999");
}

test("a 1,000-message conversation keeps only what is in view in the DOM", async ({ page }) => {
  await open(page);
  await expect(page.getByTestId("msg-assistant").last()).toBeInViewport();
  expect(await inDom(page)).toBeLessThan(40);
  await page.screenshot({ path: `${SHOTS}/chat-long.png` });

  // Scrolling to the top brings the first messages in, and the last ones leave the DOM.
  await thread(page).evaluate((el) => (el.scrollTop = 0));
  await expect(page.getByTestId("msg-user").first()).toHaveText("第 0 条：今天的心情怎么样？");
  await expect(page.getByText("回复 999")).toHaveCount(0);
  expect(await inDom(page)).toBeLessThan(40);

  // Scrolling back down reaches the end again.
  await thread(page).evaluate((el) => (el.scrollTop = el.scrollHeight));
  await expect(page.getByTestId("msg-assistant").last()).toContainText("回复 999");
});

test("a reply is followed at the bottom and leaves a person reading above in place", async ({ page }) => {
  await open(page, 60);
  await page.getByTestId("composer").fill("Work has been stressful lately");
  await page.getByTestId("composer").press("Enter");
  const reply = page.getByTestId("msg-assistant").last();
  await expect(reply).toContainText("先喘口气");
  await expect(reply).toContainText("Take it one step at a time", { timeout: 15_000 });
  await expect(reply).toBeInViewport();
  await expect(page.getByTestId("msg-user").last()).toHaveText("Work has been stressful lately");

  // Scrolled up to read while the next reply streams: the view stays where the person put it.
  await page.getByTestId("composer").fill("Work has been stressful lately");
  await page.getByTestId("composer").press("Enter");
  await expect(page.getByTestId("stop")).toBeVisible();
  // The person scrolls up with the mouse wheel while text keeps arriving.
  const box = await thread(page).boundingBox();
  if (!box) throw new Error("the thread has no box");
  await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
  for (let i = 0; i < 8; i++) await page.mouse.wheel(0, -1000);
  // The message under the middle of the view, once the heights measured there have settled.
  const reading = () =>
    thread(page).evaluate((el) => {
      const r = el.getBoundingClientRect();
      const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
      return hit?.closest(".thread-item")?.getAttribute("data-index") ?? null;
    });
  let readingAt: string | null = null;
  await expect(async () => {
    const now = await reading();
    const settled = now !== null && now === readingAt;
    readingAt = now;
    expect(settled).toBe(true);
  }).toPass({ intervals: [100, 200, 300] });
  await expect(page.getByTestId("send")).toBeVisible({ timeout: 15_000 });
  expect(await reading()).toBe(readingAt);
  await expect(page.getByText("Take it one step at a time")).toHaveCount(0);
});
