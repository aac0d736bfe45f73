// A locked data folder in a real browser over the mocked shell: a wrong passphrase is refused
// and the right one opens the app; a new folder without a keychain chooses a passphrase (typed
// twice) or, after a warning, no encryption. The passphrase never comes back to the webview.
import { expect, test } from "@playwright/test";

const SHOTS = "test-results/screenshots";

test("a passphrase-locked folder opens with its passphrase, not another", async ({ page }) => {
  await page.goto("./?lang=en&locked=passphrase#chat");
  const unlock = page.getByTestId("unlock");
  await expect(unlock).toContainText("VibeLife is locked");
  await expect(page.getByTestId("nav-chat")).toBeHidden();
  await expect(page.getByTestId("unlock-submit")).toBeDisabled();
  await page.getByTestId("unlock-passphrase").fill("guess");
  await page.getByTestId("unlock-passphrase").press("Enter");
  await expect(unlock.getByRole("alert")).toHaveText("That passphrase does not open your conversations. Try again.");
  await page.screenshot({ path: `${SHOTS}/unlock-wrong.png` });
  await page.getByTestId("unlock-passphrase").fill("open sesame");
  await page.getByTestId("unlock-submit").click();
  await expect(page.getByTestId("composer")).toBeVisible();
  await expect(page.getByTestId("unlock")).toHaveCount(0);
  const sent = await page.evaluate(() => window.__vibeMock.toWebview.join("\n"));
  expect(sent).not.toContain("open sesame");
});

test("the saved language applies once a passphrase-locked folder is open", async ({ page }) => {
  // The system's language is English; the folder's settings say 简体中文, readable only once open.
  await page.goto("./?lang=zh-CN&locked=passphrase#chat");
  await expect(page.getByTestId("unlock")).toContainText("VibeLife is locked");
  await page.getByTestId("unlock-passphrase").fill("open sesame");
  await page.getByTestId("unlock-submit").click();
  await expect(page.getByTestId("composer")).toBeVisible();
  await expect(page.getByTestId("nav-chat")).toHaveText("对话");
  await expect(page.locator("html")).toHaveAttribute("lang", "zh-CN");
});

test.describe("on a Chinese system", () => {
  test.use({ locale: "zh-CN" });
  test("without a keychain a new folder chooses a passphrase, typed twice", async ({ page }) => {
    await page.goto("./?lang=zh-CN&locked=nokey#chat");
    await expect(page.getByTestId("unlock")).toContainText("保护你的对话");
    await page.getByTestId("unlock-passphrase").fill("我的口令 2026");
    await page.getByTestId("unlock-passphrase-again").fill("我的口令 2025");
    await expect(page.getByText("两次输入的口令不一致。")).toBeVisible();
    await expect(page.getByTestId("unlock-submit")).toBeDisabled();
    await page.screenshot({ path: `${SHOTS}/unlock-choose.png` });
    await page.getByTestId("unlock-passphrase-again").fill("我的口令 2026");
    await page.getByTestId("unlock-submit").click();
    await expect(page.getByTestId("composer")).toBeVisible();
    expect(await page.evaluate(() => window.__vibeMock.encryption)).toBe("passphrase");
  });
});

test("no encryption is only chosen after its warning", async ({ page }) => {
  await page.goto("./?lang=en&locked=nokey#chat");
  await page.getByRole("button", { name: "Continue without encryption…" }).click();
  await expect(page.getByTestId("unlock")).toContainText("anyone who can read this folder can read your conversations");
  await page.getByTestId("unlock-no-encryption").click();
  await expect(page.getByTestId("composer")).toBeVisible();
  expect(await page.evaluate(() => window.__vibeMock.encryption)).toBe("none");
});
