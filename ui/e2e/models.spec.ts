// Settings → Models and first run's model offer over the mocked shell: a catalogue model is
// downloaded with progress, verified and used (the `local` preset); a download is cancelled
// and resumed; a GGUF file is added and removed; with no local server, first run downloads
// and uses a model, then opens the chat.
import { expect, test } from "@playwright/test";

const SMALL = "qwen2.5-0.5b-instruct-q4_k_m";
const MEDIUM = "qwen2.5-1.5b-instruct-q4_k_m";

test("a catalogue model is downloaded with progress, verified and used", async ({ page }) => {
  await page.goto("./?lang=en#chat");
  await page.getByTestId("nav-settings").click();
  await expect(page.getByTestId("models-free")).toContainText("Free disk space: 48.0 GiB");
  const row = page.getByTestId(`model-${SMALL}`);
  await expect(row).toContainText("468.6 MiB download · needs 953.7 MiB of memory · 32,768 tokens of context · Apache-2.0");
  await row.getByTestId("model-download").click();
  await expect(row.getByTestId("model-progress")).toBeVisible();
  await expect(row.getByTestId("model-progress-text")).toContainText("of 468.6 MiB");
  await row.scrollIntoViewIfNeeded();
  await page.screenshot({ path: "test-results/screenshots/models-downloading.png" });
  await expect(page.getByTestId("models-status")).toHaveText(`${SMALL} is downloaded and verified.`, { timeout: 10_000 });
  await row.getByTestId("model-use").click();
  await expect(row.getByTestId("model-in-use")).toHaveText("In use");
  await expect(page.getByTestId("models-status")).toHaveText(`Chat now uses ${SMALL}, on this computer.`);
  await expect(page.getByTestId("settings-preset")).toHaveValue("local");
  await expect(page.getByTestId("settings-model")).toHaveValue(SMALL);
  const llm = await page.evaluate(() => window.__vibeMock.settings.llm);
  expect(llm).toMatchObject({ preset: "local", model: SMALL });
  const events = await page.evaluate(() => window.__vibeMock.toWebview.filter((p) => p.includes("model_download_")).map((p) => JSON.parse(p).type));
  expect(events.filter((t) => t === "model_download_progress").length).toBeGreaterThan(5);
  expect(events.at(-1)).toBe("model_download_finished");
  await page.getByTestId("models-section").scrollIntoViewIfNeeded();
  await page.screenshot({ path: "test-results/screenshots/models-in-use.png" });
});

test("a cancelled download keeps its part and resumes", async ({ page }) => {
  await page.goto("./?lang=en#chat");
  await page.getByTestId("nav-settings").click();
  const row = page.getByTestId(`model-${MEDIUM}`);
  await row.getByTestId("model-download").click();
  // Any progress short of 70% (a loaded machine may skip past one given step).
  await expect(row.getByTestId("model-progress-text")).toContainText(/\((\d|[1-6]\d)%\)/);
  await row.getByTestId("model-cancel").click();
  await expect(page.getByTestId("models-status")).toContainText(`The download of ${MEDIUM} was cancelled`);
  await expect(row.getByTestId("model-download")).toHaveText(/^Resume download \(\d+\.\d MiB done\)$/);
  await row.getByTestId("model-download").click();
  await expect(page.getByTestId("models-status")).toHaveText(`${MEDIUM} is downloaded and verified.`, { timeout: 10_000 });
  const pulls = await page.evaluate(() => window.__vibeMock.fromWebview.filter((c) => c.cmd === "pull_model").length);
  expect(pulls).toBe(2);
});

test("a GGUF file is added, then removed", async ({ page }) => {
  await page.goto("./?lang=en#chat");
  await page.getByTestId("nav-settings").click();
  await page.getByTestId("models-add-file").click();
  await expect(page.getByTestId("models-status")).toHaveText("Added my-coach-q8_0.");
  const row = page.getByTestId("model-my-coach-q8_0");
  await expect(row).toContainText("your file");
  await row.getByTestId("model-remove").click();
  await expect(page.getByTestId("models-status")).toHaveText("Removed my-coach-q8_0 (774.4 MiB freed).");
  await expect(row).toHaveCount(0);
});

test("an unreadable catalogue is said plainly and models already here stay usable", async ({ page }) => {
  await page.goto("./?lang=en&catalog=broken#chat");
  await page.getByTestId("nav-settings").click();
  await page.getByTestId("models-add-file").click();
  await expect(page.getByTestId("models-catalog-error")).toContainText(
    "The model catalogue (https://mirror.example/catalog.json) cannot be read, so nothing can be downloaded now; models already here still work.",
  );
  const row = page.getByTestId("model-my-coach-q8_0");
  await row.getByTestId("model-use").click();
  await expect(row.getByTestId("model-in-use")).toHaveText("In use");
});

test("the models section speaks Chinese", async ({ page }) => {
  await page.goto("./?lang=zh-CN#chat");
  await page.getByTestId("nav-settings").click();
  await expect(page.getByTestId("models-section")).toContainText("本机模型");
  await expect(page.getByTestId(`model-${SMALL}`).getByTestId("model-download")).toHaveText("下载");
  await page.getByTestId("models-section").scrollIntoViewIfNeeded();
  await page.screenshot({ path: "test-results/screenshots/models-zh.png" });
});

test("with no local server, first run downloads a model, uses it and opens the chat", async ({ page }) => {
  await page.goto("./?lang=en&firstRun=1#chat");
  const offer = page.getByTestId("first-run-model");
  await expect(offer).toContainText("Download Qwen2.5 1.5B Instruct (1.0 GiB, needs 1.9 GiB of memory)");
  await page.screenshot({ path: "test-results/screenshots/first-run-model.png" });
  await page.getByTestId("first-run-download").click();
  await expect(offer.getByTestId("model-progress")).toBeVisible();
  await expect(page.getByTestId("composer")).toBeVisible({ timeout: 10_000 });
  const llm = await page.evaluate(() => window.__vibeMock.settings.llm);
  expect(llm).toMatchObject({ preset: "local", model: MEDIUM });
});
