// The Skills screen over the mocked shell: the index with roots, shadows and validity; a
// validation error (path:line:col) gone after a fix on disk, by reload and live through the
// registry's skills_changed notices; a new skill from the template; parts and resources.
import { expect, test } from "@playwright/test";

const SHOTS = "test-results/screenshots";

test("a validation error shows with path:line:col and is gone after a fix and a reload", async ({ page }) => {
  await page.goto("./?lang=en#chat");
  await page.getByTestId("nav-skills").click();
  const rows = page.getByTestId("skill-row");
  await expect(rows).toHaveCount(5);
  const broken = rows.filter({ hasText: "journal-helper" });
  await expect(broken).toContainText("Has errors");
  await expect(broken.getByTestId("skill-problem")).toContainText(
    "journal-helper/SKILL.md:3:1: error: the front matter lacks the required field `description`",
  );
  await expect(rows.filter({ hasText: "lifecoach" })).toContainText("Hides the built-in skill of the same name in /usr/share/vibelife/skills/lifecoach");
  await page.screenshot({ path: `${SHOTS}/skills-error.png` });

  await page.evaluate(() => window.__vibeMock.editSkill("journal-helper", true, false));
  await expect(page.getByTestId("skill-problem")).toHaveCount(1);
  await page.getByTestId("skills-reload").click();
  await expect(page.getByTestId("skill-problem")).toHaveCount(0);
  await expect(broken).toContainText("Valid");
  await expect(page.getByTestId("skills-changes")).toHaveText("journal-helper changed");
});

test("a skill edited on disk shows its new state live, without a reload", async ({ page }) => {
  await page.goto("./?lang=zh-CN#chat");
  await page.getByTestId("nav-skills").click();
  await expect(page.getByTestId("skill-problem")).toHaveCount(1);
  await page.evaluate(() => window.__vibeMock.editSkill("journal-helper", true, true));
  await expect(page.getByTestId("skill-problem")).toHaveCount(0);
  await expect(page.getByTestId("skills-changes")).toHaveText("journal-helper 已更新");
  await page.evaluate(() => window.__vibeMock.editSkill("journal-helper", false, true));
  await expect(page.getByTestId("skill-problem")).toHaveCount(1);
  // Worded in Chinese from the finding's kind, the place kept as path:line:col.
  await expect(page.getByTestId("skill-problem")).toContainText("journal-helper/SKILL.md:3:1: 错误: 前置信息缺少必填字段 `description`");
  await expect(page.getByTestId("skills-changes")).toHaveText("journal-helper 有错误");
  await page.screenshot({ path: `${SHOTS}/skills-zh.png` });
  const reloads = await page.evaluate(() => window.__vibeMock.fromWebview.filter((c) => c.cmd === "reload_skills").length);
  expect(reloads).toBe(0);
});

test("a new skill from the template; a skill's parts and resources", async ({ page }) => {
  await page.goto("./?lang=en#chat");
  await page.getByTestId("nav-skills").click();
  await page.getByLabel("New skill").fill("Bad Name");
  await page.getByRole("button", { name: "Create from template" }).click();
  await expect(page.getByRole("alert")).toContainText("is not a skill name");
  await page.getByLabel("New skill").fill("my-habits");
  await page.getByRole("button", { name: "Create from template" }).click();
  await expect(page.getByRole("status")).toContainText("Created /home/me/.local/share/app.vibelife.desktop/skills/my-habits/SKILL.md");
  await expect(page.getByTestId("skill-row")).toHaveCount(6);
  const coach = page.getByTestId("skill-row").filter({ hasText: "lifecoach" });
  await coach.getByRole("button", { name: "Parts and resources" }).click();
  await expect(coach).toContainText("dankoe, weekly_review");
  await expect(coach).toContainText("scripts/streak.py");
  await page.emulateMedia({ colorScheme: "dark" });
  await page.setViewportSize({ width: 1100, height: 1200 });
  await page.screenshot({ path: `${SHOTS}/skills-dark.png` });
});
