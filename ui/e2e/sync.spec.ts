// Settings → Sync over the mocked shell (src/e2e-mock/sync.ts): the off state explains sync;
// set up through WebDAV (a refused login said next to the form, the password sent once and
// never back or kept), the recovery code shown once with its QR code until "I saved it";
// status, sync now, pause / resume, live status from `sync_changed`; join with a code (a
// mistyped one caught before sending, a wrong one said by the core); removing a device shows
// the new code; a failing background sync said in the status. Both languages, light and dark,
// axe on each state, screenshots in test-results/screenshots.
import { expect, test, type Page } from "@playwright/test";
import { axe, SHOTS } from "./support";

const PASSWORD = "dav-pass-7731-secret";
const OTHER_CODE = `VL1-${"ABCD-".repeat(12)}ABCD`;

async function open(page: Page, lang: "en" | "zh-CN", query = "") {
  await page.goto(`./?lang=${lang}${query}#chat`);
  await page.getByTestId("nav-settings").click();
  await page.getByTestId("settings-sync").scrollIntoViewIfNeeded();
}

/** The window as the person sees it (scroll what matters into view first). */
const shot = (page: Page, name: string) => page.screenshot({ path: `${SHOTS}/sync-${name}.png` });

for (const theme of ["light", "dark"] as const) {
  test(`set up through WebDAV: a refused login next to the form, the code once, the password never back (${theme})`, async ({ page }) => {
    await page.emulateMedia({ colorScheme: theme });
    await open(page, "en");
    const section = page.getByTestId("settings-sync");
    await expect(section).toContainText("There is no VibeLife server");
    await expect(section).toContainText("sees only encrypted files");
    await shot(page, `off-en-${theme}`);
    await axe(page, "sync, off");

    await page.getByTestId("sync-setup").click();
    await page.getByTestId("sync-kind-webdav").click();
    await page.getByTestId("sync-url").fill("https://me:pw@cloud.example.org/dav");
    await page.getByTestId("sync-submit").click();
    await expect(page.getByTestId("sync-form")).toContainText("not in the URL");
    await page.getByTestId("sync-url").fill("https://cloud.example.org/remote.php/dav/files/me/vibelife");
    await page.getByTestId("sync-user").fill("me");
    await page.getByTestId("sync-submit").click();
    await expect(page.getByTestId("sync-form")).toContainText("This is needed.");
    expect(await page.evaluate(() => window.__vibeMock.fromWebview.filter((c) => c.cmd === "sync_setup").length)).toBe(0);

    await page.getByTestId("sync-secret").fill("wrong");
    await expect(page.getByTestId("sync-secret")).toHaveAttribute("type", "password");
    await page.getByTestId("sync-submit").click();
    await expect(page.getByTestId("sync-form-error")).toContainText("HTTP 401 Unauthorized");
    await expect(page.getByTestId("sync-secret")).toHaveValue("");
    await page.getByTestId("sync-form-error").scrollIntoViewIfNeeded();
    await shot(page, `form-error-en-${theme}`);
    await axe(page, "sync, form with an error");

    await page.getByTestId("sync-secret").fill(PASSWORD);
    await page.getByTestId("sync-submit").click();
    const recovery = page.getByTestId("sync-recovery");
    await expect(recovery).toContainText("Your recovery code");
    await expect(page.getByTestId("sync-qr")).toBeVisible();
    const code = (await page.getByTestId("sync-code-text").innerText()).replace(/\s+/g, "-");
    expect(code).toMatch(/^VL1(-[A-Z2-7]{4}){13}$/);
    await expect(page.getByTestId("sync-state")).toHaveText("Sync is on");
    await expect(page.getByTestId("sync-target")).toHaveText("https://cloud.example.org/remote.php/dav/files/me/vibelife (user me)");
    await recovery.scrollIntoViewIfNeeded();
    await shot(page, `code-en-${theme}`);
    await axe(page, "sync, recovery code");
    await expect(page.getByTestId("sync-code-saved")).toBeDisabled();
    await page.getByTestId("sync-code-saved-check").check();
    await page.getByTestId("sync-code-saved").click();
    await expect(recovery).toHaveCount(0);
    expect(await page.content()).not.toContain(code.slice(8));

    const mock = await page.evaluate(() => ({
      toWebview: window.__vibeMock.toWebview,
      fromWebview: window.__vibeMock.fromWebview,
      keychain: [...window.__vibeMock.keychain.entries()],
      storage: JSON.stringify({ ...localStorage }),
    }));
    expect(mock.keychain).toContainEqual(["sync-secret", PASSWORD]);
    expect(mock.fromWebview.filter((c) => c.args.includes(PASSWORD)).map((c) => c.cmd)).toEqual(["sync_setup"]);
    expect(mock.toWebview.filter((p) => p.includes(PASSWORD))).toEqual([]);
    expect(mock.storage).not.toContain(PASSWORD);
    expect(mock.storage).not.toContain(code);
    expect(await page.content()).not.toContain(PASSWORD);
  });
}

test("status, sync now, pause and resume, live from sync_changed; removing a device shows the new code", async ({ page }) => {
  await open(page, "en", "&sync=on");
  await expect(page.getByTestId("sync-state")).toHaveText("Sync is on");
  await expect(page.getByTestId("settings-sync")).toContainText("2 changes wait to be sent.");
  await expect(page.getByTestId("sync-device")).toHaveCount(2);
  await expect(page.getByTestId("sync-devices")).toContainText("This device");
  await page.getByTestId("sync-now").click();
  // The run's start and end arrive through the watch channel.
  await expect(page.getByTestId("sync-state")).toHaveText("Syncing…");
  await expect(page.getByTestId("sync-state")).toHaveText("Sync is on");
  await expect(page.getByTestId("settings-sync")).toContainText("Sent 1 and received 1 batches");
  await expect(page.getByTestId("settings-sync")).toContainText("Nothing waits to be sent.");
  await page.getByTestId("sync-pause").click();
  await expect(page.getByTestId("sync-state")).toHaveText("Paused");
  await expect(page.getByTestId("sync-pause")).toHaveText("Resume");
  await expect(page.getByTestId("settings-sync")).toContainText("does not sync by itself");
  await page.getByTestId("sync-devices").scrollIntoViewIfNeeded();
  await shot(page, "status-paused-en-light");
  await axe(page, "sync, status paused");
  await page.getByTestId("sync-pause").click();
  await expect(page.getByTestId("sync-state")).toHaveText("Sync is on");
  const pauses = await page.evaluate(() => window.__vibeMock.fromWebview.filter((c) => c.cmd === "sync_pause").map((c) => JSON.parse(c.args).request));
  expect(pauses).toEqual([{ paused: true }, { paused: false }]);

  await page.getByTestId("sync-remove-9f8e7d6c5b4a3921").click();
  const dialog = page.getByTestId("sync-remove-dialog");
  await expect(dialog).toContainText("Remove laptop from sync?");
  await expect(dialog).toContainText("replaces the sync key");
  await page.screenshot({ path: `${SHOTS}/sync-remove-en-light.png` });
  await axe(page, "sync, remove a device");
  await dialog.getByTestId("sync-remove-confirm").click();
  await expect(page.getByTestId("sync-recovery")).toContainText("Your new recovery code");
  await expect(page.getByTestId("sync-recovery")).toContainText("the old code no longer works");
  await expect(page.getByTestId("sync-device")).toHaveCount(1);
});

test("a failing sync is said in the status, once, also when a run asked for fails", async ({ page }) => {
  await open(page, "en", "&sync=failing");
  await expect(page.getByTestId("sync-state")).toHaveText("The last sync failed");
  await expect(page.getByTestId("sync-last-error")).toContainText("permission denied");
  const before = await page.getByTestId("settings-sync").innerText();
  await page.getByTestId("sync-now").click();
  // The run asked for failed too: said once, in the status (its time moved on).
  await expect(page.getByTestId("sync-state")).toHaveText("The last sync failed");
  await expect.poll(() => page.getByTestId("settings-sync").innerText()).not.toBe(before);
  await expect(page.getByTestId("sync-last-error")).toContainText("permission denied");
  await expect(page.getByTestId("sync-error")).toHaveCount(0);
  await page.getByTestId("sync-last-error").scrollIntoViewIfNeeded();
  await shot(page, "failed-en-light");
  await axe(page, "sync, failed");
});

for (const theme of ["light", "dark"] as const) {
  test(`join with a code in Chinese: a mistyped code caught, a wrong one said by the core (${theme})`, async ({ page }) => {
    await page.emulateMedia({ colorScheme: theme });
    await open(page, "zh-CN");
    const section = page.getByTestId("settings-sync");
    await expect(section).toContainText("没有 VibeLife 服务器");
    await page.getByTestId("sync-join").click();
    await expect(page.getByTestId("sync-kind-folder")).toHaveAttribute("aria-checked", "true");
    await page.getByTestId("sync-path").fill("/home/me/Sync/vibelife");
    await page.getByTestId("sync-code").fill("VL1-ABCD-1234");
    await page.getByTestId("sync-submit").click();
    await expect(page.getByTestId("sync-form")).toContainText("这不是 VibeLife 的恢复码");
    expect(await page.evaluate(() => window.__vibeMock.fromWebview.filter((c) => c.cmd === "sync_join").length)).toBe(0);
    await page.getByTestId("sync-code").fill(OTHER_CODE.replace(/ABCD-ABCD$/, "EFGH-ABCD"));
    await page.getByTestId("sync-submit").click();
    await expect(page.getByTestId("sync-form-error")).toContainText("does not open the sync target");
    await page.getByTestId("sync-form-error").scrollIntoViewIfNeeded();
    await shot(page, `join-error-zh-${theme}`);
    await axe(page, "sync, join error, Chinese");
    await page.getByTestId("sync-code").fill(OTHER_CODE.toLowerCase().replace(/-/g, " "));
    await page.getByTestId("sync-submit").click();
    await expect(page.getByTestId("sync-state")).toHaveText("同步已开启");
    await expect(page.getByTestId("sync-recovery")).toHaveCount(0);
    await expect(page.getByTestId("sync-devices")).toContainText("laptop");
    await page.getByTestId("sync-now").click();
    await expect(section).toContainText("没有等待发送的更改。");
    await page.getByTestId("sync-devices").scrollIntoViewIfNeeded();
    await shot(page, `on-zh-${theme}`);
    await axe(page, "sync, on, Chinese");
    const joined = await page.evaluate(() => window.__vibeMock.fromWebview.filter((c) => c.cmd === "sync_join").map((c) => JSON.parse(c.args).request.code));
    expect(joined.at(-1)).toBe(OTHER_CODE);
  });
}

test("S3 in Chinese: a missing bucket said next to the form, then the code", async ({ page }) => {
  await open(page, "zh-CN");
  await page.getByTestId("sync-setup").click();
  await page.getByTestId("sync-kind-s3").click();
  await page.getByTestId("sync-endpoint").fill("https://s3.eu-central-1.amazonaws.com");
  await page.getByTestId("sync-bucket").fill("missing-bucket");
  await page.getByTestId("sync-region").fill("eu-central-1");
  await page.getByTestId("sync-accessKeyId").fill("AKIAEXAMPLE");
  await page.getByTestId("sync-secret").fill("s3-secret");
  await page.getByTestId("sync-prefix").fill("vibelife/");
  await page.getByTestId("sync-submit").click();
  await expect(page.getByTestId("sync-form-error")).toContainText("NoSuchBucket");
  await page.getByTestId("sync-form-error").scrollIntoViewIfNeeded();
  await shot(page, "s3-error-zh-light");
  await page.getByTestId("sync-bucket").fill("my-bucket");
  await page.getByTestId("sync-secret").fill("s3-secret");
  await page.getByTestId("sync-submit").click();
  await expect(page.getByTestId("sync-recovery")).toContainText("你的恢复码");
  await page.getByTestId("sync-recovery").scrollIntoViewIfNeeded();
  await shot(page, "code-zh-light");
  await axe(page, "sync, code, Chinese");
  await expect(page.getByTestId("sync-target")).toHaveText("s3 https://s3.eu-central-1.amazonaws.com bucket my-bucket under vibelife/");
});
