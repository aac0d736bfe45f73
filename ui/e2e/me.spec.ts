// The "Me" screen over the mocked shell: birth info with its charts and the reflection note,
// a goal edited in place (written back with write_state), the journal search, the journal
// refreshed when the coach writes it during a turn, and a memory item edited and forgotten.
import { expect, test } from "@playwright/test";

const SHOTS = "test-results/screenshots";

test("a goal is edited in place and written back to the coach's state", async ({ page }) => {
  await page.goto("./?lang=en#chat");
  await page.getByTestId("nav-me").click();
  await expect(page.getByTestId("charts")).toContainText("庚午");
  await expect(page.getByTestId("charts")).toContainText("Sun: 金牛座 Taurus");
  await expect(page.getByText("Charts are material for reflection, not fate")).toBeVisible();
  // The page scrolls inside its pane: a tall window shows all of it.
  await page.setViewportSize({ width: 1100, height: 1500 });
  await page.screenshot({ path: `${SHOTS}/me.png` });
  await page.emulateMedia({ colorScheme: "dark" });
  await page.screenshot({ path: `${SHOTS}/me-dark.png` });
  await page.emulateMedia({ colorScheme: "light" });
  await page.setViewportSize({ width: 1100, height: 760 });
  const goal = page.getByTestId("state-goals-year");
  await expect(goal).toContainText("转行成为产品设计师");
  await goal.getByRole("button", { name: "Edit This year" }).click();
  await goal.getByRole("textbox").fill("Become a product designer by next autumn");
  await goal.getByRole("button", { name: "Save" }).click();
  await expect(goal).toContainText("Become a product designer by next autumn");
  await expect(goal.getByRole("textbox")).toHaveCount(0);
  const writes = await page.evaluate(() =>
    window.__vibeMock.fromWebview.filter((c) => c.cmd === "write_state").map((c) => JSON.parse(c.args).request),
  );
  expect(writes).toEqual([{ skill: "lifecoach", section: "goals", data: { year: "Become a product designer by next autumn" } }]);
  // The other goal is kept (a merge, not a replacement).
  await expect(page.getByTestId("state-goals-month")).toContainText("完成两个作品集案例");

  const levers = page.getByTestId("state-current-daily_levers");
  await levers.getByRole("button", { name: "Edit Daily levers" }).click();
  await levers.getByRole("textbox").fill("Write 30 minutes before 7\nOne application a day\nWalk after lunch");
  await levers.getByRole("button", { name: "Save" }).click();
  await expect(levers.getByRole("listitem")).toHaveCount(3);
  // By keyboard: Esc closes the editor and gives focus back to its Edit button.
  const vision = page.getByTestId("state-north_star-vision");
  await vision.getByRole("button", { name: "Edit Vision" }).focus();
  await page.keyboard.press("Enter");
  await expect(vision.getByRole("textbox")).toBeFocused();
  await page.keyboard.press("Escape");
  await expect(vision.getByRole("textbox")).toHaveCount(0);
  await expect(vision.getByRole("button", { name: "Edit Vision" })).toBeFocused();

  await page.getByRole("searchbox", { name: "Search the journal" }).fill("作品集");
  await expect(page.getByTestId("journal-entry")).toHaveCount(1);
});

test("the dashboard's journal refreshes when the coach writes it during a turn", async ({ page }) => {
  await page.goto("./?lang=en#chat");
  // A turn that stays open (the benchmark's run): the coach's tool call arrives while Me is shown.
  await page.getByTestId("composer").fill("bench");
  await page.getByTestId("composer").press("Enter");
  await expect(page.getByTestId("stop")).toBeVisible();
  await page.getByTestId("nav-me").click();
  await expect(page.getByTestId("journal-entry")).toHaveCount(3);
  await page.evaluate(() =>
    window.__vibeMock.coachAppends("journal", { date: "2026-11-27", mood: 8, highlights: ["和教练聊完决定先做作品集"] }),
  );
  await expect(page.getByTestId("journal-entry")).toHaveCount(4);
  await expect(page.getByTestId("journal-entry").first()).toContainText("和教练聊完决定先做作品集");
});

test("a memory item is edited, then forgotten; the switch and export reach the shell", async ({ page }) => {
  await page.goto("./?lang=zh-CN#chat");
  await page.getByTestId("nav-me").click();
  const items = page.getByTestId("memory-item");
  await expect(items).toHaveCount(3);
  await page.getByTestId("memory-item").filter({ hasText: "女儿" }).getByTestId("memory-edit").click();
  await page.getByRole("textbox", { name: "教练应该记住的内容" }).fill("有一个 6 岁的女儿");
  await page.getByRole("button", { name: "保存" }).click();
  await expect(items.filter({ hasText: "有一个 6 岁的女儿" })).toContainText("你改过");
  await page.screenshot({ path: `${SHOTS}/me-memory-zh.png`, fullPage: true });

  await items.filter({ hasText: "加班" }).getByTestId("memory-forget").click();
  await expect(items).toHaveCount(2);
  await expect(page.getByText("经常加班到很晚")).toHaveCount(0);
  const forgotten = await page.evaluate(() =>
    window.__vibeMock.fromWebview.filter((c) => c.cmd === "forget_memory_item").map((c) => JSON.parse(c.args).request),
  );
  expect(forgotten).toEqual([{ id: "0193m003cccc" }]);

  await page.getByTestId("memory-switch").uncheck();
  await expect(page.getByText("记忆已关闭")).toBeVisible();
  await page.getByTestId("memory-export").click();
  await expect(page.getByRole("status")).toContainText("/home/me/Documents/vibelife-memory.json");

  // The source link opens the conversation the item came from.
  await items.first().getByRole("button", { name: "打开它来自的对话" }).click();
  await expect(page.getByTestId("nav-chat")).toHaveAttribute("aria-current", "true");
});

test("birth info is saved through the core's checks; a bad place shows its error", async ({ page }) => {
  await page.goto("./?lang=en#chat");
  await page.getByTestId("nav-me").click();
  await page.getByTestId("birth-edit").click();
  await page.getByLabel("I don't know the time").check();
  await page.getByLabel("Place").fill("Qwertzville");
  await page.getByRole("button", { name: "Save" }).click();
  await expect(page.getByRole("alert")).toContainText("no place called Qwertzville");
  await page.getByLabel("Place").fill("Suzhou");
  await page.getByRole("button", { name: "Save" }).click();
  await expect(page.locator(".facts")).toContainText("Suzhou");
  await expect(page.locator(".facts")).toContainText("Unknown");
});

test("a journal entry is edited in place, written back as that one entry through the core", async ({ page }) => {
  await page.goto("./?lang=en#chat");
  await page.getByTestId("nav-me").click();
  const entries = page.getByTestId("journal-entry");
  await expect(entries).toHaveCount(3);
  const second = entries.nth(1);
  await expect(second).toContainText("和朋友聊了转行");
  // By keyboard: the entry's Edit button opens its fields.
  await second.getByRole("button", { name: "Edit the entry of 2026-11-24" }).focus();
  await page.keyboard.press("Enter");
  await second.getByLabel("Mood (1–10)").fill("8");
  await second.getByLabel("Highlights").fill("和朋友聊了转行\n投出第一份申请");
  await second.getByLabel("Notes").fill("心里踏实了一些");
  await page.setViewportSize({ width: 1100, height: 1500 });
  await second.screenshot({ path: `${SHOTS}/journal-edit.png` });
  await page.setViewportSize({ width: 1100, height: 760 });
  await second.getByRole("button", { name: "Save" }).click();
  await expect(second).toContainText("mood 8/10");
  await expect(second).toContainText("投出第一份申请");
  await expect(second).toContainText("心里踏实了一些");
  await expect(second.getByRole("button", { name: "Edit the entry of 2026-11-24" })).toBeFocused();
  const edits = await page.evaluate(() =>
    window.__vibeMock.fromWebview.filter((c) => c.cmd === "edit_state_entry").map((c) => JSON.parse(c.args).request),
  );
  expect(edits).toEqual([
    {
      skill: "lifecoach",
      path: "journal",
      index: 1,
      created_at: "2026-11-24T21:00:00Z",
      entry: { date: "2026-11-24", mood: 8, highlights: ["和朋友聊了转行", "投出第一份申请"], lessons: ["担心收入下降"], text: "心里踏实了一些" },
    },
  ]);
  // The others are untouched; a search keeps each entry's own place in the list.
  await expect(entries.nth(0)).toContainText("完成了第一版作品集");
  await page.getByRole("searchbox", { name: "Search the journal" }).fill("跑步");
  await expect(entries).toHaveCount(1);
  await entries.first().getByRole("button", { name: /Edit the entry/ }).click();
  await entries.first().getByLabel("Tomorrow").fill("投出 5 份申请");
  await page.keyboard.press("Control+Enter");
  await expect(entries.first()).toContainText("投出 5 份申请");
  const last = await page.evaluate(() =>
    window.__vibeMock.fromWebview.filter((c) => c.cmd === "edit_state_entry").map((c) => JSON.parse(c.args).request).at(-1),
  );
  expect(last).toMatchObject({ index: 2, created_at: "2026-11-22T21:00:00Z" });
  // Esc leaves an entry unchanged.
  await entries.first().getByRole("button", { name: /Edit the entry/ }).click();
  await entries.first().getByLabel("Tomorrow").fill("x");
  await page.keyboard.press("Escape");
  await expect(entries.first()).toContainText("投出 5 份申请");
});

test("a journal entry edited on Me to words at risk is saved and answered with the crisis contacts", async ({ page }) => {
  await page.goto("./?lang=zh-CN#chat");
  await page.getByTestId("nav-me").click();
  const entries = page.getByTestId("journal-entry");
  await expect(entries).toHaveCount(3);
  const first = entries.first();
  await first.getByRole("button", { name: /编辑/ }).click();
  await first.getByLabel("随记").fill("加班到半夜，我真的不想活了");
  await page.keyboard.press("Control+Enter");
  await expect(first).toContainText("我真的不想活了");
  const notice = page.getByTestId("safety-notice");
  await expect(notice.getByTestId("safety-resource").filter({ hasText: "12356" })).toBeVisible();
  await page.locator("section.journal").screenshot({ path: `${SHOTS}/me-journal-safety-zh.png` });
  // A calm edit afterwards clears it.
  await first.getByRole("button", { name: /编辑/ }).click();
  await first.getByLabel("随记").fill("睡了一觉，好一些了");
  await page.keyboard.press("Control+Enter");
  await expect(first).toContainText("睡了一觉，好一些了");
  await expect(notice).toHaveCount(0);
});

test("a place name shared by two cities asks which one; the choice is confirmed with its country", async ({ page }) => {
  await page.goto("./?lang=zh-CN#chat");
  await page.getByTestId("nav-me").click();
  await page.getByTestId("birth-edit").click();
  await page.getByLabel("地点").fill("奥克兰");
  await page.getByRole("button", { name: "保存" }).click();
  const picker = page.getByTestId("place-picker");
  await expect(picker).toContainText("你指的是哪个「奥克兰」？");
  await expect(picker.getByRole("button")).toHaveCount(2);
  await page.getByTestId("place-picker").screenshot({ path: `${SHOTS}/birth-place-picker.png` });
  // Nothing is stored before the person chooses.
  const sets = () =>
    page.evaluate(() => window.__vibeMock.fromWebview.filter((c) => c.cmd === "set_profile_path").map((c) => JSON.parse(c.args).request));
  expect(await sets()).toEqual([]);
  await picker.getByRole("button", { name: /奥克兰，新西兰/ }).click();
  await expect(page.getByTestId("birth-place-confirmed")).toHaveText("出生地：奥克兰，新西兰");
  const [stored] = await sets();
  expect(stored.value.place_id).toBe("g2193733");
  // The zone typed before (Asia/Shanghai) is kept when the place did not change; here the place
  // changed, so the place decides its zone and nothing is warned.
  await expect(page.getByTestId("birth-zone-warning")).toHaveCount(0);
});

test("a zone that is not the place's is warned about and the place's zone offered", async ({ page }) => {
  await page.goto("./?lang=en#chat");
  await page.getByTestId("nav-me").click();
  await page.getByTestId("birth-edit").click();
  await page.getByLabel("Place").fill("Auckland");
  await page.getByLabel("Time zone").fill("Asia/Tokyo");
  await page.getByRole("button", { name: "Save" }).click();
  await expect(page.getByTestId("birth-place-confirmed")).toHaveText("Birth place: Auckland, New Zealand");
  const warning = page.getByTestId("birth-zone-warning");
  await expect(warning).toContainText("Asia/Tokyo is not the time zone of Auckland, New Zealand (Pacific/Auckland)");
  await page.locator("section.birth").screenshot({ path: `${SHOTS}/birth-zone-warning.png` });
  await warning.getByRole("button", { name: "Use Pacific/Auckland" }).click();
  await expect(warning).toHaveCount(0);
  await expect(page.locator(".facts")).toContainText("Pacific/Auckland");
});
