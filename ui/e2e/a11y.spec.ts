// Accessibility and the design system over the mocked shell: every screen (chat with a reply,
// tool lines and a plan, the approval dialog, a protocol's invitation, the conversation list,
// Protocols, Me, Skills, Settings, first run, unlock, the reminder card) in both languages and
// both themes has no serious or critical axe-core violation (contrast AA included); the keyboard
// reaches the controls with a visible focus ring; the theme switch applies, persists through the
// core, and is applied before the first paint of the next start.
import { expect, test } from "@playwright/test";
import { axe, SHOTS, send } from "./support";

for (const lang of ["en", "zh-CN"] as const) {
  for (const theme of ["light", "dark"] as const) {
    test(`every screen passes axe-core (${lang}, ${theme})`, async ({ page }) => {
      test.setTimeout(90_000);
      await page.emulateMedia({ colorScheme: theme });
      const shot = (name: string) => page.screenshot({ path: `${SHOTS}/a11y-${name}-${lang}-${theme}.png` });

      await page.goto(`./?lang=${lang}&delay=0&reminder=1#chat`);
      await expect(page.locator("html")).toHaveAttribute("data-theme", theme);
      await expect(page.getByTestId("reminder-card")).toBeVisible();
      await axe(page, "chat, empty, with the reminder card");

      await send(page, lang === "en" ? "make a plan for my week" : "帮我做个计划");
      await expect(page.getByTestId("tool-activity").first()).toBeVisible();
      await expect(page.getByTestId("send")).toBeVisible();
      await axe(page, "chat with a reply, tools and a plan");
      await shot("chat");

      await send(page, "我想重置一下我的生活");
      await expect(page.getByTestId("protocol-invitation")).toBeVisible();
      await expect(page.getByTestId("protocol-start")).toBeEnabled({ timeout: 15_000 });
      await axe(page, "protocol invitation");
      await page.getByTestId("protocol-start").click();
      await expect(page.getByTestId("protocol-progress")).toBeVisible();
      await send(page, "我真的不想活了，已经想好怎么做了");
      await expect(page.getByTestId("safety-notice")).toBeVisible();
      await expect(page.getByTestId("protocol-paused")).toBeVisible();
      await axe(page, "safety notice above a paused protocol");
      await shot("paused");

      await send(page, "运行这个脚本");
      await expect(page.getByTestId("approval-dialog")).toBeVisible();
      await axe(page, "approval dialog");
      await shot("approval");
      await page.getByTestId("deny").click();
      await expect(page.getByTestId("send")).toBeVisible();

      for (const screen of ["protocols", "me", "skills", "settings"] as const) {
        await page.getByTestId(`nav-${screen}`).click();
        await expect(page.getByTestId(`nav-${screen}`)).toHaveAttribute("aria-current", "true");
        if (screen === "me") await expect(page.getByTestId("me-preferences")).toBeVisible();
        if (screen === "skills") await expect(page.getByTestId("skill-row").first()).toBeVisible();
        if (screen === "settings") await expect(page.getByTestId("theme-switch")).toBeVisible();
        if (screen === "protocols") await expect(page.getByTestId("protocol-run").first()).toBeVisible();
        await axe(page, screen);
        await shot(screen);
      }

      await page.goto(`./?lang=${lang}&firstRun=1#chat`);
      await expect(page.getByTestId("first-run")).toBeVisible();
      await expect(page.getByTestId("first-run-model")).toBeVisible();
      await axe(page, "first run");
      await shot("first-run");

      await page.goto(`./?lang=${lang}&locked=passphrase#chat`);
      await expect(page.getByTestId("unlock")).toBeVisible();
      await axe(page, "unlock");
      await shot("unlock");
    });
  }
}

test("the keyboard reaches the navigation and the composer, each with a visible focus ring", async ({ page }) => {
  await page.goto("./?lang=en#chat");
  await expect(page.getByTestId("composer")).toBeVisible();
  const ring = () =>
    page.evaluate(() => {
      const el = document.activeElement as HTMLElement;
      const s = getComputedStyle(el);
      return { testid: el.dataset.testid ?? el.tagName, outline: s.outlineStyle, width: parseFloat(s.outlineWidth) };
    });
  await page.locator(".brand").click();
  const reached = new Set<string>();
  for (let i = 0; i < 30 && !reached.has("composer"); i++) {
    await page.keyboard.press("Tab");
    const r = await ring();
    if (r.testid === "BODY") continue;
    reached.add(r.testid);
    expect(r.outline, `focus ring on ${r.testid}`).not.toBe("none");
    expect(r.width, `focus ring on ${r.testid}`).toBeGreaterThan(0);
  }
  for (const id of ["nav-chat", "nav-protocols", "nav-me", "nav-skills", "nav-settings", "composer"]) expect(reached).toContain(id);
});

test("the theme switch applies at once, is saved through the core and paints first on the next start", async ({ page }) => {
  await page.emulateMedia({ colorScheme: "light" });
  await page.goto("./?lang=zh-CN#chat");
  await page.getByTestId("nav-settings").click();
  const sw = page.getByTestId("theme-switch");
  await expect(sw.getByRole("radio", { name: "跟随系统" })).toHaveAttribute("aria-checked", "true");
  await expect(page.locator("html")).toHaveAttribute("data-theme", "light");
  // System follows the OS.
  await page.emulateMedia({ colorScheme: "dark" });
  await expect(page.locator("html")).toHaveAttribute("data-theme", "dark");
  await page.emulateMedia({ colorScheme: "light" });
  await sw.getByRole("radio", { name: "深色" }).click();
  await expect(page.locator("html")).toHaveAttribute("data-theme", "dark");
  await expect(sw.getByRole("radio", { name: "深色" })).toHaveAttribute("aria-checked", "true");
  expect(await page.evaluate(() => window.__vibeMock.settings.preferences.theme)).toBe("dark");
  await page.screenshot({ path: `${SHOTS}/settings-theme-dark-zh.png` });
  // The keyboard moves the choice too.
  await sw.getByRole("radio", { name: "深色" }).press("ArrowLeft");
  await expect(page.locator("html")).toHaveAttribute("data-theme", "light");
  expect(await page.evaluate(() => window.__vibeMock.settings.preferences.theme)).toBe("light");
  await sw.getByRole("radio", { name: "浅色" }).press("ArrowRight");
  await expect(page.locator("html")).toHaveAttribute("data-theme", "dark");

  // The next start paints dark before the app has read its settings (no light flash).
  await page.addInitScript(() => {
    const w = window as unknown as { __firstTheme?: string | null };
    new MutationObserver((_, obs) => {
      if (w.__firstTheme === undefined && document.documentElement?.dataset.theme) {
        w.__firstTheme = document.documentElement.dataset.theme;
        obs.disconnect();
      }
    }).observe(document, { subtree: true, attributes: true, attributeFilter: ["data-theme"] });
  });
  await page.reload();
  await expect(page.getByTestId("nav-chat")).toBeVisible();
  expect(await page.evaluate(() => (window as unknown as { __firstTheme?: string }).__firstTheme)).toBe("dark");
});

test("the chat stream is announced politely once, as one region, not token by token", async ({ page }) => {
  await page.goto("./?lang=en&delay=40#chat");
  const thread = page.getByTestId("thread");
  await expect(thread).toHaveAttribute("aria-live", "polite");
  await send(page, "hello there");
  await expect(page.getByTestId("stop")).toBeVisible();
  await expect(thread).toHaveAttribute("aria-busy", "true");
  await expect(page.getByTestId("send")).toBeVisible({ timeout: 15_000 });
  await expect(thread).toHaveAttribute("aria-busy", "false");
  // No live region inside it: the reply is read as a whole, not each delta.
  await expect(thread.locator("[aria-live]")).toHaveCount(0);
});
