// Today, the check-in, the journal and a new conversation's starters (issue 31) over the mocked
// shell, in both languages and both themes: the app opens on Today; a check-in takes a mood, a
// feeling (the list's and one's own) and a line, is checked before it is sent, and shows on
// Today and in the journal; "write about it" opens the journal editor with today's prompt; an
// entry is edited and deleted (after a confirmation); the coach's entries are marked; a new
// conversation offers the skills' starters, which send. Every state passes axe-core with no
// serious or critical violation; screenshots of Today, the check-in and the editor are written.
import { expect, test } from "@playwright/test";
import { axe, SHOTS } from "./support";

const WORDS = {
  en: {
    greeting: /^(Good morning|Good afternoon|Good evening|Still up\? Go gently)$/,
    prompt: /When today|What is taking|Who would you like/,
    good: "Good",
    calm: "calm",
    own: "walked",
    note: "A long walk after lunch",
    saved: "Checked in.",
    streak: "1 day in a row",
    entry: "Thankful for the quiet morning.",
    edited: "Thankful for the quiet morning, and the walk.",
    you: "You wrote",
    coach: "Written by your coach",
    checkin: "Check-in",
    starter: "Help me look back on this week",
    answerNow: "Answer now",
  },
  "zh-CN": {
    greeting: /^(早上好|下午好|晚上好|夜深了，慢慢来)$/,
    prompt: /今天有哪一刻|此刻最占据|今天你想感谢谁/,
    good: "不错",
    calm: "平静",
    own: "散步",
    note: "午饭后走了很久",
    saved: "签到好了",
    streak: "已连续 1 天",
    entry: "感谢安静的早晨。",
    edited: "感谢安静的早晨，还有散步。",
    you: "你写的",
    coach: "教练记下的",
    checkin: "签到",
    starter: "帮我回顾一下这一周",
    answerNow: "现在回答",
  },
} as const;

for (const lang of ["en", "zh-CN"] as const) {
  for (const theme of ["light", "dark"] as const) {
    test(`Today, a check-in, the journal editor and starters (${lang}, ${theme})`, async ({ page }) => {
      test.setTimeout(90_000);
      const w = WORDS[lang];
      await page.emulateMedia({ colorScheme: theme });
      await page.setViewportSize({ width: 1100, height: 1000 });
      const shot = (name: string) => page.screenshot({ path: `${SHOTS}/${name}-${lang}-${theme}.png`, fullPage: true });

      // Opens on Today: the greeting, the prompt, the reminder due with "answer now", the
      // empty protocol and conversation inviting a first step.
      await page.goto(`./?lang=${lang}&delay=0&reminder=1`);
      await expect(page.getByTestId("nav-today")).toHaveAttribute("aria-current", "true");
      await expect(page.getByRole("heading", { level: 1 })).toHaveText(w.greeting);
      await expect(page.getByTestId("today-prompt")).toContainText(w.prompt);
      await expect(page.getByTestId("today").getByTestId("reminder-open")).toHaveText(w.answerNow);
      await expect(page.getByTestId("reminder-card")).toHaveCount(1);
      await expect(page.getByTestId("today-conversation")).toContainText("一日人生重置");
      await expect(page.getByTestId("today-protocol").locator(".empty-state")).toBeVisible();
      await expect(page.getByTestId("today-streak").locator(".empty-state")).toBeVisible();
      await axe(page, "today");
      await shot("today");

      // The check-in: no mood is caught before anything is sent.
      const checkin = page.getByTestId("checkin");
      await page.getByTestId("checkin-save").click();
      await expect(checkin.getByTestId("problem-mood")).toBeVisible();
      await page.getByTestId("checkin-mood-4").click();
      await expect(page.getByTestId("checkin-mood-4")).toHaveAttribute("aria-checked", "true");
      await expect(checkin.getByTestId("problem-mood"), "choosing a mood clears its problem").toHaveCount(0);
      await expect(page.getByTestId("checkin-mood-4")).toContainText(w.good);
      await checkin.getByTestId("checkin-feeling").filter({ hasText: w.calm }).click();
      await page.getByTestId("checkin-own").fill(w.own);
      await page.getByTestId("checkin-own-add").click();
      await expect(checkin.getByTestId("checkin-feeling").filter({ hasText: w.own })).toHaveAttribute("aria-pressed", "true");
      await page.getByTestId("checkin-note").fill(w.note);
      await axe(page, "check-in filled");
      await checkin.screenshot({ path: `${SHOTS}/checkin-${lang}-${theme}.png` });
      await page.getByTestId("checkin-save").click();
      await expect(page.getByTestId("checkin-saved")).toContainText(w.saved);
      const done = page.getByTestId("today-checkins");
      await expect(done).toContainText(w.good);
      await expect(done).toContainText(w.calm);
      await expect(done).toContainText(w.own);
      await expect(done).toContainText(w.note);
      await expect(page.getByTestId("today-streak")).toContainText(w.streak);
      const sent = await page.evaluate(() => window.__vibeMock.fromWebview.filter((c) => c.cmd === "checkin").map((c) => JSON.parse(c.args).request));
      expect(sent).toEqual([{ mood: 4, feelings: [w.calm, w.own], note: w.note, date: null }]);
      await axe(page, "today, checked in");
      await shot("today-done");
      // Checking in again offers the person's own feeling from before as a chip.
      await page.getByTestId("checkin-again").click();
      await expect(page.getByTestId("checkin").getByTestId("checkin-feeling").filter({ hasText: w.own })).toHaveAttribute("aria-pressed", "false");

      // "Write about it": the journal editor with today's prompt quoted.
      await page.getByTestId("today-write").click();
      await expect(page.getByTestId("nav-journal")).toHaveAttribute("aria-current", "true");
      const editor = page.getByTestId("journal-editor");
      await expect(editor).toBeVisible();
      await expect(page.getByTestId("journal-text")).toHaveValue(new RegExp(`^> (${w.prompt.source})`));
      await page.getByTestId("journal-text").pressSequentially(w.entry);
      await page.getByTestId("journal-mood-5").click();
      await page.getByTestId("journal-tags").fill(lang === "en" ? "morning, gratitude" : "早晨，感恩");
      await axe(page, "journal editor");
      await editor.screenshot({ path: `${SHOTS}/journal-editor-${lang}-${theme}.png` });
      await page.getByTestId("journal-save").click();
      await expect(editor).toHaveCount(0);
      await expect(page.getByTestId("journal-status")).toBeVisible();

      // The list: the person's entry (Markdown rendered: the prompt as a quote), the check-in,
      // the coach's entries marked as the coach's.
      const entries = page.getByTestId("journal-entry");
      const mine = entries.filter({ hasText: w.entry });
      await expect(mine.getByTestId("journal-source")).toHaveText(w.you);
      await expect(mine.locator("blockquote")).toContainText(w.prompt);
      await expect(entries.filter({ hasText: w.note }).getByTestId("journal-source")).toHaveText(w.checkin);
      await expect(entries.filter({ hasText: "完成了第一版作品集" }).getByTestId("journal-source")).toHaveText(w.coach);
      await axe(page, "journal list");
      await shot("journal");

      // Search, edit, delete (confirmed).
      await page.getByTestId("journal-search").fill(w.note);
      await expect(entries).toHaveCount(1);
      await page.getByTestId("journal-search").fill("");
      await expect(entries).toHaveCount(5);
      await mine.getByTestId("journal-edit").click();
      await page.getByTestId("journal-text").fill(w.edited);
      await page.getByTestId("journal-save").click();
      const edited = entries.filter({ hasText: w.edited });
      await expect(edited).toHaveCount(1);
      await edited.getByTestId("journal-delete").click();
      await expect(page.getByTestId("journal-delete-dialog")).toBeVisible();
      await axe(page, "delete confirmation");
      await page.getByTestId("journal-delete-confirm").click();
      await expect(entries.filter({ hasText: w.edited })).toHaveCount(0);
      await expect(entries).toHaveCount(4);

      // A new conversation offers the skills' starters; one sends.
      await page.getByTestId("nav-chat").click();
      const starters = page.getByTestId("starters");
      await expect(starters.getByTestId("starter").first()).toContainText(w.starter);
      await axe(page, "starters");
      await starters.getByTestId("starter").first().click();
      await expect(page.getByTestId("thread")).toContainText(w.starter);
      await expect(starters).toHaveCount(0);

      // Back on Today: the conversation to continue.
      await page.getByTestId("nav-today").click();
      await expect(page.getByTestId("today-conversation")).toContainText(w.starter.slice(0, 10));
    });
  }
}

test("a check-in the core refuses shows the core's words, and nothing is lost from the form", async ({ page }) => {
  await page.goto("./?lang=en&fail=checkin");
  await page.getByTestId("checkin-mood-2").click();
  await page.getByTestId("checkin-note").fill("rough day");
  await page.getByTestId("checkin-save").click();
  await expect(page.getByTestId("checkin-failed")).toContainText("The check-in was not saved");
  await expect(page.getByTestId("checkin-failed")).toContainText("database is locked");
  await expect(page.getByTestId("checkin-failed")).toHaveAttribute("role", "alert");
  await expect(page.getByTestId("checkin-note")).toHaveValue("rough day");
  await expect(page.getByTestId("checkin-mood-2")).toHaveAttribute("aria-checked", "true");
});

test("the check-in is done from the keyboard alone", async ({ page }) => {
  await page.goto("./?lang=en");
  await expect(page.getByTestId("checkin")).toBeVisible();
  // Tab until the mood scale has focus (from the navigation on).
  for (let i = 0; i < 30; i++) {
    await page.keyboard.press("Tab");
    if (await page.getByTestId("checkin-mood-1").evaluate((el) => el === document.activeElement)) break;
  }
  await expect(page.getByTestId("checkin-mood-1")).toBeFocused();
  const ring = await page.getByTestId("checkin-mood-1").evaluate((el) => getComputedStyle(el).outlineStyle);
  expect(ring).toBe("solid");
  await page.keyboard.press("ArrowRight");
  await page.keyboard.press("ArrowRight");
  await expect(page.getByTestId("checkin-mood-3")).toHaveAttribute("aria-checked", "true");
  await expect(page.getByTestId("checkin-mood-3")).toBeFocused();
  await page.keyboard.press("Tab");
  await expect(page.getByTestId("checkin-feeling").first()).toBeFocused();
  await page.keyboard.press("Enter");
  await expect(page.getByTestId("checkin-feeling").first()).toHaveAttribute("aria-pressed", "true");
  await page.getByTestId("checkin-note").focus();
  await page.keyboard.type("ok");
  await page.keyboard.press("Enter");
  await expect(page.getByTestId("today-checkins")).toContainText("Okay");
});

test("Today continues the active protocol and answers a due reminder in its conversation", async ({ page }) => {
  await page.goto("./?lang=en&delay=0&reminder=1#chat");
  await page.getByTestId("composer").fill("我想重置一下我的生活");
  await page.getByTestId("composer").press("Enter");
  await expect(page.getByTestId("protocol-start")).toBeEnabled({ timeout: 15_000 });
  await page.getByTestId("protocol-start").click();
  await expect(page.getByTestId("protocol-progress")).toHaveAttribute("aria-valuenow", "1");
  await expect(page.getByTestId("send")).toBeVisible();
  await page.getByTestId("nav-today").click();
  const card = page.getByTestId("today-protocol");
  await expect(card).toContainText("One-Day Life Reset");
  await expect(card).toContainText("Step 1 of 6: 觉察痛点");
  await card.getByTestId("today-continue-protocol").click();
  await expect(page.getByTestId("nav-chat")).toHaveAttribute("aria-current", "true");
  await expect(page.getByTestId("protocol-progress")).toBeVisible();

  await page.getByTestId("nav-today").click();
  await page.getByTestId("today").getByTestId("reminder-open").click();
  await expect(page.getByTestId("nav-chat")).toHaveAttribute("aria-current", "true");
  await expect(page.getByTestId("reminder-question")).toContainText("你现在做的事");
});

test("with no prompts or starters declared, Today and a new conversation still invite a first step", async ({ page }) => {
  await page.goto("./?lang=zh-CN&prompts=none");
  await expect(page.getByTestId("today-prompt").locator(".empty-state")).toContainText("写几行字");
  await page.getByTestId("today-write").click();
  await expect(page.getByTestId("journal-editor")).toBeVisible();
  await expect(page.getByTestId("journal-text")).toHaveValue("");
  await page.getByTestId("journal-save").click();
  await expect(page.getByTestId("problem-text")).toContainText("先写几个字");
  await page.getByTestId("nav-chat").click();
  await expect(page.getByTestId("starters")).toHaveCount(0);
  await expect(page.getByTestId("composer")).toBeVisible();
});

test("when the day cannot be read, Today says so and a check-in still works; Me shows it on five points", async ({ page }) => {
  await page.goto("./?lang=en&fail=today");
  await expect(page.getByTestId("failure-today")).toContainText("Today could not be read.");
  await page.getByTestId("checkin-mood-4").click();
  await page.getByTestId("checkin-save").click();
  await expect(page.getByTestId("checkin-saved")).toBeVisible();
  await page.getByTestId("nav-me").click();
  await expect(page.getByTestId("journal-entry").first()).toContainText("mood 4/5");
});

test("a check-in or a journal entry at risk is saved and answered with the crisis contacts", async ({ page }) => {
  await page.goto("./?lang=zh-CN");
  await page.getByTestId("checkin-mood-1").click();
  await page.getByTestId("checkin-note").fill("真的不想活了");
  await page.getByTestId("checkin-save").click();
  await expect(page.getByTestId("checkin-saved")).toBeVisible();
  const notice = page.getByTestId("safety-notice");
  await expect(notice).toHaveAttribute("role", "alert");
  await expect(notice.getByTestId("safety-resource").filter({ hasText: "全国心理援助热线" })).toContainText("12356");
  await expect(page.getByTestId("today-checkins")).toContainText("真的不想活了");
  // Back on Today later that day: the contacts stay, folded to one line.
  await page.getByTestId("nav-journal").click();
  await page.getByTestId("nav-today").click();
  await expect(notice.getByTestId("safety-resource")).toHaveCount(0);
  await notice.getByRole("button", { name: "显示求助电话" }).click();
  await expect(notice.getByTestId("safety-resource").filter({ hasText: "12356" })).toBeVisible();
  await axe(page, "a check-in at risk");
  await page.screenshot({ path: `${SHOTS}/checkin-safety-zh.png` });

  // The journal: an entry at risk brings them too; a calm one after it does not.
  await page.getByTestId("nav-journal").click();
  await page.getByTestId("journal-new").click();
  await page.getByTestId("journal-text").fill("今天又觉得不想活了");
  await page.getByTestId("journal-save").click();
  await expect(page.getByTestId("journal-status")).toBeVisible();
  await expect(page.getByTestId("safety-notice").getByTestId("safety-resource").first()).toBeVisible();
  await page.screenshot({ path: `${SHOTS}/journal-safety-zh.png` });
  await page.getByTestId("journal-new").click();
  await page.getByTestId("journal-text").fill("散步了很久，好一些");
  await page.getByTestId("journal-save").click();
  await expect(page.getByTestId("safety-notice")).toHaveCount(0);
});
