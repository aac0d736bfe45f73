// What the browser tests share: where screenshots go, the accessibility check every screen
// must pass (axe-core, WCAG 2.1 A/AA and best practice: no serious or critical violation), and
// sending a chat message the way a person does.
import AxeBuilder from "@axe-core/playwright";
import { expect, type Page } from "@playwright/test";

export const SHOTS = "test-results/screenshots";

/** Fails naming each serious or critical axe-core violation on the page, prefixed by `what`. */
export async function axe(page: Page, what: string) {
  const result = await new AxeBuilder({ page }).withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "best-practice"]).analyze();
  const bad = result.violations
    .filter((v) => v.impact === "serious" || v.impact === "critical")
    .map((v) => `${what}: ${v.id} (${v.impact}) ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`);
  expect(bad).toEqual([]);
}

/** Types `text` into the composer and presses Enter, once the composer takes a message: while a
 * reply runs it shows Stop instead of Send and Enter sends nothing, so a message typed then would
 * be lost to the test (a fresh-clone CI run met exactly that). */
export async function send(page: Page, text: string) {
  await expect(page.getByTestId("send")).toBeVisible({ timeout: 15_000 });
  await page.getByTestId("composer").fill(text);
  await page.getByTestId("composer").press("Enter");
}
