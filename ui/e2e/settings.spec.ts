// Settings over the mocked shell: saving, testing the connection, and the API key never
// travelling back to the webview.
import { expect, test } from "@playwright/test";

const SECRET = "sk-test-0123456789abcdef";

test("settings are saved and the connection test shows its result", async ({ page }) => {
  await page.goto("./?lang=en#chat");
  await page.getByTestId("nav-settings").click();
  await page.getByTestId("settings-base-url").fill("http://127.0.0.1:11434/v1");
  await page.getByTestId("settings-model").fill("llama3.2");
  await page.getByTestId("settings-test").click();
  await expect(page.getByTestId("settings-test-result")).toHaveText("Connected: llama3.2 answered.");
  await page.getByTestId("settings-save").click();
  await expect(page.getByText("Saved.")).toBeVisible();
  const saved = await page.evaluate(() => window.__vibeMock.settings.llm);
  expect(saved).toMatchObject({ base_url: "http://127.0.0.1:11434/v1", model: "llama3.2" });
  await page.screenshot({ path: "test-results/screenshots/settings.png" });

  await page.getByTestId("settings-base-url").fill("http://127.0.0.1:9/v1");
  await page.getByTestId("settings-test").click();
  await expect(page.getByTestId("settings-test-result")).toContainText("no model reachable at http://127.0.0.1:9/v1");
});

test("the language setting switches the UI", async ({ page }) => {
  await page.goto("./?lang=en#chat");
  await page.getByTestId("nav-settings").click();
  await page.getByLabel("Language").selectOption("zh-CN");
  await page.getByTestId("settings-save").click();
  await expect(page.getByTestId("nav-chat")).toHaveText("对话");
  await expect(page.getByTestId("settings-save")).toHaveText("保存");
  await page.screenshot({ path: "test-results/screenshots/settings-zh.png" });
});

test("the API key goes to the keychain and never comes back to the webview", async ({ page }) => {
  await page.goto("./?lang=en#chat");
  await page.getByTestId("nav-settings").click();
  await page.getByTestId("settings-api-key").fill(SECRET);
  await page.getByTestId("settings-save").click();
  await expect(page.getByText("A key is stored in the system keychain.")).toBeVisible();
  await expect(page.getByTestId("settings-api-key")).toHaveValue("");
  // Reopen Settings and chat so every read command runs again after the key was stored.
  await page.getByTestId("nav-chat").click();
  await page.getByTestId("composer").fill("hello");
  await page.getByTestId("composer").press("Enter");
  await expect(page.getByTestId("msg-assistant")).toContainText("Take it one step", { timeout: 15_000 });
  await page.getByTestId("nav-settings").click();
  await expect(page.getByText("A key is stored in the system keychain.")).toBeVisible();

  const mock = await page.evaluate(() => ({
    toWebview: window.__vibeMock.toWebview,
    fromWebview: window.__vibeMock.fromWebview,
    keychain: [...window.__vibeMock.keychain.values()],
  }));
  expect(mock.keychain).toEqual([SECRET]);
  expect(mock.fromWebview.filter((c) => c.args.includes(SECRET)).map((c) => c.cmd)).toEqual(["set_api_key"]);
  expect(mock.toWebview.length).toBeGreaterThan(20);
  expect(mock.toWebview.filter((p) => p.includes(SECRET))).toEqual([]);
  expect(await page.content()).not.toContain(SECRET);
});

test("Settings say how the data is encrypted, and warn when it is not", async ({ page }) => {
  await page.goto("./?lang=en#chat");
  await page.getByTestId("nav-settings").click();
  await expect(page.getByTestId("settings-encryption")).toHaveText(
    "Your data is encrypted; its key is kept in the system keychain.",
  );

  await page.goto("./?lang=zh-CN&encryption=none#chat");
  await page.getByTestId("nav-settings").click();
  const warning = page.getByTestId("settings-encryption");
  await expect(warning).toHaveAttribute("role", "alert");
  await expect(warning).toContainText("未加密");
  await warning.scrollIntoViewIfNeeded();
  await page.screenshot({ path: "test-results/screenshots/settings-unencrypted-zh.png" });
});

test("a control reached with Tab is never hidden under the sticky Save bar", async ({ page }) => {
  await page.goto("./?lang=en#chat");
  await page.getByTestId("nav-settings").click();
  await page.getByTestId("settings-base-url").focus();
  let checked = 0;
  for (let i = 0; i < 80; i++) {
    await page.keyboard.press("Tab");
    const hidden = await page.evaluate(() => {
      const el = document.activeElement as HTMLElement | null;
      const bar = document.querySelector(".settings-actions");
      if (!el || !bar || !el.closest(".settings") || el.closest(".settings-actions")) return null;
      const r = el.getBoundingClientRect();
      if (r.height === 0) return null;
      return { covered: r.bottom > bar.getBoundingClientRect().top + 1, what: el.outerHTML.slice(0, 120) };
    });
    if (!hidden) continue;
    checked++;
    expect(hidden.covered, `focused control under the Save bar: ${hidden.what}`).toBe(false);
  }
  expect(checked).toBeGreaterThan(10);
});
