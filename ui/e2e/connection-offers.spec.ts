// What connections offer besides tools, over the mocked shell (src/e2e-mock/mcp.ts): a
// server's resources listed under it in Settings → Connections, one added to the next message
// (the composer starts with its content); its prompts listed after the starters of a new
// conversation, one with a required argument asking for it before filling the composer
// (nothing is sent by choosing). Screenshots in both languages and the axe check.
import { expect, test, type Page } from "@playwright/test";
import { axe, SHOTS } from "./support";

const WORDS = {
  en: { attached: "Added to your next message", from: "from the connection notes", header: "Resource 1 (from the connection notes):" },
  "zh-CN": { attached: "已加入下一条消息", from: "来自连接 notes", header: "Resource 1（来自连接 notes）：" },
};

async function addServer(page: Page, lang: "en" | "zh-CN") {
  await page.goto(`./?lang=${lang}#chat`);
  await page.getByTestId("nav-settings").click();
  await page.getByTestId("settings-connections").scrollIntoViewIfNeeded();
  await page.getByTestId("connection-add-form").click();
  await page.getByTestId("connection-name").fill("notes");
  await page.getByTestId("connection-command").fill("npx");
  await page.getByTestId("connection-add-submit").click();
}

for (const lang of ["en", "zh-CN"] as const) {
  test(`a resource goes into the next message and a prompt fills the composer (${lang})`, async ({ page }) => {
    const words = WORDS[lang];
    await addServer(page, lang);
    const card = page.getByTestId("connection-notes");
    await card.getByTestId("connection-resources-toggle").click();
    const resource = card.getByTestId("resource");
    await expect(resource).toHaveCount(1);
    await expect(resource).toContainText("Resource 1");
    await expect(resource).toContainText("text/plain");
    await resource.getByTestId("resource-attach").click();
    await expect(resource.getByTestId("resource-attach")).toHaveText(words.attached);
    await expect(resource.getByTestId("resource-attach")).toBeDisabled();
    await card.scrollIntoViewIfNeeded();
    await card.screenshot({ path: `${SHOTS}/connections-resources-${lang}.png` });
    await axe(page, `connections, resources (${lang})`);

    await page.getByTestId("nav-chat").click();
    const composer = page.getByTestId("composer");
    await expect(composer).toHaveValue(`${words.header}\nResource 1: This is a plaintext resource`);

    const prompts = page.getByTestId("mcp-prompt");
    await expect(prompts).toHaveCount(2);
    await expect(prompts.nth(1)).toContainText("Weekly review");
    await expect(prompts.nth(1)).toContainText(words.from);
    await prompts.nth(1).click();
    const form = page.getByTestId("mcp-prompt-form");
    await expect(form.getByTestId("mcp-prompt-fill")).toBeDisabled();
    await form.getByTestId("mcp-prompt-arg-focus").fill("sleep");
    await page.screenshot({ path: `${SHOTS}/chat-mcp-prompts-${lang}.png` });
    await axe(page, `chat, connection prompts (${lang})`);
    await form.getByTestId("mcp-prompt-fill").click();
    await expect(composer).toHaveValue("Let us review my week, looking at sleep.");
    await expect(form).toHaveCount(0);
    // A prompt without arguments fills at once; choosing sends nothing.
    await prompts.nth(0).click();
    await expect(composer).toHaveValue("This is a simple prompt without arguments.");
    const sent = await page.evaluate(() => window.__vibeMock.fromWebview.filter((c) => c.cmd === "send_message").length);
    expect(sent).toBe(0);
  });
}
