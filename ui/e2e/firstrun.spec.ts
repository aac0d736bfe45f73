// First run over the mocked shell: a local server found is offered and used; with none found
// the screen explains what is needed and leads to Settings. Never a blank window.
import { expect, test } from "@playwright/test";

test("a local Ollama found at first run is offered and becomes the model", async ({ page }) => {
  await page.goto("./?lang=en&firstRun=1&local=ollama#chat");
  await expect(page.getByTestId("first-run")).toBeVisible();
  await expect(page.getByTestId("first-run-server")).toContainText("Ollama");
  await page.getByLabel("Model").selectOption("llama3.2");
  await page.getByTestId("first-run-use").click();
  await expect(page.getByTestId("composer")).toBeVisible();
  const saved = await page.evaluate(() => window.__vibeMock.settings.llm);
  expect(saved).toMatchObject({ preset: "ollama", base_url: "http://127.0.0.1:11434/v1", model: "llama3.2" });
});

test("with no local server, first run explains and leads to Settings", async ({ page }) => {
  await page.goto("./?lang=zh-CN&firstRun=1#chat");
  await expect(page.getByTestId("first-run")).toContainText("没有正在运行的模型服务");
  await page.getByTestId("first-run-settings").click();
  await expect(page.getByTestId("settings-base-url")).toBeVisible();
  await expect(page.getByTestId("app-version")).toHaveText("VibeLife 0.1.0");
});

test("once configured, the app opens on the chat", async ({ page }) => {
  await page.goto("./?lang=en#chat");
  await expect(page.getByTestId("composer")).toBeVisible();
  await expect(page.getByTestId("first-run")).toHaveCount(0);
});
