// Settings → Connections over the mocked shell (src/e2e-mock/mcp.ts): adding a server by form
// (its permissions said in plain words first, its secret sent once and never back) and by
// pasting a Claude Desktop config, a bad paste refused with where it is wrong, a failing
// server's reason and stderr lines, the always-allow switch of a tool, removing after a
// confirmation; screenshots in both languages and the axe check.
import { expect, test, type Page } from "@playwright/test";
import { axe, SHOTS } from "./support";

const SECRET = "notes-token-5150-secret";

async function open(page: Page, lang: "en" | "zh-CN") {
  await page.goto(`./?lang=${lang}#chat`);
  await page.getByTestId("nav-settings").click();
  await page.getByTestId("settings-connections").scrollIntoViewIfNeeded();
}

async function addByForm(page: Page, name: string, command: string) {
  await page.getByTestId("connection-add-form").click();
  await page.getByTestId("connection-name").fill(name);
  await page.getByTestId("connection-command").fill(command);
}

test("a server added by form: permissions in words first, live status, its secret never comes back", async ({ page }) => {
  await open(page, "en");
  await expect(page.getByTestId("settings-connections")).toContainText("No connections yet.");
  await addByForm(page, "notes", "npx");
  await page.getByTestId("connection-args").fill("-y\n@me/notes-mcp");
  await page.getByTestId("env-add").click();
  await page.getByTestId("env-name-0").fill("NOTES_TOKEN");
  await page.getByTestId("env-value-0").fill(SECRET);
  await expect(page.getByTestId("env-value-0")).toHaveAttribute("type", "password");
  await page.getByTestId("connection-read").fill("/home/me/Notes");
  const preview = page.getByTestId("connection-preview");
  await expect(preview).toContainText("No network.");
  await expect(preview).toContainText("Reads: /home/me/Notes");
  await expect(preview).toContainText("Changes none of your folders.");
  await page.getByTestId("connection-network").check();
  await expect(preview).toContainText("Can use the network.");
  // Unconfined is an explicit choice with its warning.
  await page.getByTestId("connection-unconfined").check();
  await expect(page.getByTestId("connection-unconfined-warning")).toContainText("all your rights");
  await expect(preview).toContainText("Runs unconfined");
  await preview.scrollIntoViewIfNeeded();
  await page.screenshot({ path: `${SHOTS}/connections-add-en.png` });
  await axe(page, "connections, add form");
  await page.getByTestId("connection-unconfined").uncheck();
  await page.getByTestId("connection-add-submit").click();

  const card = page.getByTestId("connection-notes");
  await expect(card.getByTestId("connection-status")).toHaveText("Connected · 4 tools");
  await expect(card).toContainText("NOTES_TOKEN: stored in the keychain");
  await expect(card).toContainText("Reads: /home/me/Notes");
  await expect(card).toContainText("npx -y @me/notes-mcp");
  await card.screenshot({ path: `${SHOTS}/connections-card-en.png` });

  const mock = await page.evaluate(() => ({ toWebview: window.__vibeMock.toWebview, fromWebview: window.__vibeMock.fromWebview, keychain: [...window.__vibeMock.keychain.entries()] }));
  expect(mock.keychain).toEqual([["mcp:notes:env:NOTES_TOKEN", SECRET]]);
  expect(mock.fromWebview.filter((c) => c.args.includes(SECRET)).map((c) => c.cmd)).toEqual(["add_mcp_server"]);
  expect(mock.toWebview.filter((p) => p.includes(SECRET))).toEqual([]);
  const added = JSON.parse(mock.fromWebview.find((c) => c.cmd === "add_mcp_server")?.args ?? "{}");
  expect(added.request.sandbox).toEqual({ network: true, read: ["/home/me/Notes"], write: [], unconfined: false });
  expect(await page.content()).not.toContain(SECRET);
});

test("a form mistake is said at its field and nothing is sent", async ({ page }) => {
  await open(page, "en");
  await addByForm(page, "my notes", "npx");
  await page.getByTestId("connection-add-submit").click();
  await expect(page.getByTestId("connection-form")).toContainText('"my notes" cannot name a connection');
  const sent = await page.evaluate(() => window.__vibeMock.fromWebview.filter((c) => c.cmd === "add_mcp_server").length);
  expect(sent).toBe(0);
});

test("servers added by pasting a Claude Desktop config; bad JSON says where", async ({ page }) => {
  await open(page, "en");
  await page.getByTestId("connection-add-paste").click();
  await page.getByTestId("connection-json").fill('{\n  "mcpServers": {\n    "calendar": {"command": "npx",}\n  }\n}');
  await page.getByTestId("connection-import").click();
  await expect(page.getByTestId("connection-paste")).toContainText("This is not valid JSON (line 3, column");
  await page.getByTestId("connection-json").fill('{"servers_list": []}');
  await page.getByTestId("connection-import").click();
  await expect(page.getByTestId("connection-paste")).toContainText('No servers found: expected {"mcpServers"');
  const imported = await page.evaluate(() => window.__vibeMock.fromWebview.filter((c) => c.cmd === "import_mcp_servers").length);
  expect(imported).toBe(0);

  const config = {
    mcpServers: {
      calendar: { command: "npx", args: ["-y", "calendar-mcp"], env: { CAL_TOKEN: "cal-secret-77" } },
      tracker: { url: "https://mcp.tracker.example/mcp", headers: { Authorization: "Bearer trk-secret-88" } },
    },
  };
  await page.getByTestId("connection-json").fill(JSON.stringify(config, null, 2));
  await page.getByTestId("connection-import").click();
  await expect(page.getByTestId("connection-import-report")).toContainText("Added: calendar, tracker");
  await expect(page.getByTestId("connection-calendar").getByTestId("connection-status")).toHaveText("Connected · 4 tools");
  await expect(page.getByTestId("connection-tracker")).toContainText("Runs elsewhere, at https://mcp.tracker.example/mcp");
  await expect(page.getByTestId("connection-calendar")).toContainText("No network.");
  const back = await page.evaluate(() => window.__vibeMock.toWebview.filter((p) => p.includes("cal-secret-77") || p.includes("trk-secret-88")));
  expect(back).toEqual([]);
});

test("a failing server shows the reason and its stderr; on demand it is tested again", async ({ page }) => {
  await open(page, "en");
  await addByForm(page, "broken", "crash-notes");
  await page.getByTestId("connection-add-submit").click();
  const card = page.getByTestId("connection-broken");
  await expect(card.getByTestId("connection-status")).toHaveText("Not working");
  await expect(card.getByTestId("connection-failure")).toContainText("stopped (exit status: 1) during initialize");
  await expect(card.getByTestId("connection-stderr")).toContainText("Cannot find module '/home/me/servers/notes/index.js'");
  await card.screenshot({ path: `${SHOTS}/connections-failed-en.png` });
  await axe(page, "connections, a failed server");
  const tests = () => page.evaluate(() => window.__vibeMock.fromWebview.filter((c) => c.cmd === "test_mcp_server").length);
  const before = await tests();
  await card.getByTestId("connection-test").click();
  await expect(card.getByTestId("connection-status")).toHaveText("Not working");
  expect(await tests()).toBe(before + 1);

  await addByForm(page, "ghost", "no-such-mcp-command");
  await page.getByTestId("connection-add-submit").click();
  await expect(page.getByTestId("connection-ghost").getByTestId("connection-failure")).toContainText("was not found; looked in");
  // Turned off: not tested, said as off.
  await page.getByTestId("connection-ghost").getByTestId("connection-enabled").uncheck();
  await expect(page.getByTestId("connection-ghost").getByTestId("connection-status")).toHaveText("Off");
});

test("a tool's always-allow switch is saved, and a server is removed after confirming", async ({ page }) => {
  await open(page, "en");
  await addByForm(page, "everything", "node");
  await page.getByTestId("connection-add-submit").click();
  const card = page.getByTestId("connection-everything");
  await expect(card.getByTestId("connection-status")).toHaveText("Connected · 4 tools");
  await card.getByTestId("connection-tools-toggle").click();
  const echo = card.getByTestId("tool-echo");
  await expect(echo).toContainText("only reads");
  await expect(card.getByTestId("tool-delete-note")).toContainText("may delete or overwrite");
  await echo.getByTestId("tool-always").check();
  await expect(echo.getByTestId("tool-always")).toBeChecked();
  const set = await page.evaluate(() => window.__vibeMock.fromWebview.filter((c) => c.cmd === "set_mcp_tool_always_allow").map((c) => JSON.parse(c.args).request));
  expect(set).toEqual([{ server: "everything", tool: "echo", always_allow: true }]);
  await echo.scrollIntoViewIfNeeded();
  await page.screenshot({ path: `${SHOTS}/connections-tools-en.png` });
  await axe(page, "connections, tools");
  // Listed again (the screen reopened): still on; then off.
  await page.getByTestId("nav-chat").click();
  await open(page, "en");
  await page.getByTestId("connection-everything").getByTestId("connection-tools-toggle").click();
  const again = page.getByTestId("connection-everything").getByTestId("tool-echo").getByTestId("tool-always");
  await expect(again).toBeChecked();
  await again.uncheck();
  await expect(again).not.toBeChecked();

  await page.getByTestId("connection-everything").getByTestId("connection-remove").click();
  const dialog = page.getByTestId("connection-remove-dialog");
  await expect(dialog).toContainText("Remove everything?");
  await page.screenshot({ path: `${SHOTS}/connections-remove-en.png` });
  await dialog.getByTestId("connection-remove-confirm").click();
  await expect(page.getByTestId("connection-everything")).toHaveCount(0);
  await expect(page.getByTestId("settings-connections")).toContainText("No connections yet.");
});

test("the Connections screen in Chinese", async ({ page }) => {
  await open(page, "zh-CN");
  await expect(page.getByTestId("settings-connections")).toContainText("还没有连接。");
  await addByForm(page, "broken", "crash-notes");
  await page.getByTestId("connection-add-submit").click();
  await expect(page.getByTestId("connection-broken").getByTestId("connection-status")).toHaveText("无法使用");
  await addByForm(page, "notes", "npx");
  await page.getByTestId("connection-write").fill("/home/me/笔记");
  await page.getByTestId("connection-unconfined").check();
  await expect(page.getByTestId("connection-unconfined-warning")).toContainText("全部权限");
  await page.getByTestId("connection-unconfined").uncheck();
  await expect(page.getByTestId("connection-preview")).toContainText("可读取和修改：/home/me/笔记");
  await page.getByTestId("connection-preview").scrollIntoViewIfNeeded();
  await page.screenshot({ path: `${SHOTS}/connections-add-zh.png` });
  await page.getByTestId("connection-add-submit").click();
  const card = page.getByTestId("connection-notes");
  await expect(card.getByTestId("connection-status")).toHaveText("已连接 · 4 个工具");
  await card.getByTestId("connection-tools-toggle").click();
  await expect(card.getByTestId("tool-echo")).toContainText("只读取");
  await card.getByTestId("tool-echo").scrollIntoViewIfNeeded();
  await page.screenshot({ path: `${SHOTS}/connections-zh.png` });
  await axe(page, "connections, Chinese");
});

test("a program's permissions are changed on its card: fields filled, a folder to fix said at its field, saved in words", async ({ page }) => {
  await open(page, "en");
  await addByForm(page, "notes", "npx");
  await page.getByTestId("connection-read").fill("/home/me/Notes");
  await page.getByTestId("connection-add-submit").click();
  const card = page.getByTestId("connection-notes");
  await expect(card).toContainText("Reads: /home/me/Notes");
  await card.getByTestId("connection-grant-edit").click();
  const editor = card.getByTestId("grant-editor");
  await expect(editor.getByTestId("grant-read")).toHaveValue("/home/me/Notes");
  await expect(editor.getByTestId("grant-network")).not.toBeChecked();
  // A relative folder: said at its field, nothing sent.
  await editor.getByTestId("grant-write").fill("Out");
  await editor.getByTestId("grant-save").click();
  await expect(editor).toContainText('The folder "Out" must be an absolute path');
  const sent = () => page.evaluate(() => window.__vibeMock.fromWebview.filter((c) => c.cmd === "set_mcp_server_grant").map((c) => JSON.parse(c.args).request));
  expect(await sent()).toEqual([]);
  await editor.getByTestId("grant-write").fill("/home/me/Out");
  await editor.getByTestId("grant-network").check();
  const preview = editor.getByTestId("grant-preview");
  await expect(preview).toContainText("Can use the network.");
  await expect(preview).toContainText("Reads and changes: /home/me/Out");
  await expect(editor).toContainText("Once saved, this connection:");
  await expect(editor).toContainText("starts again with these permissions");
  await editor.scrollIntoViewIfNeeded();
  await page.screenshot({ path: `${SHOTS}/connections-grant-en.png` });
  await axe(page, "connections, change permissions");
  await editor.getByTestId("grant-save").click();
  await expect(card.getByTestId("grant-editor")).toHaveCount(0);
  await expect(card).toContainText("Can use the network.");
  await expect(card).toContainText("Reads and changes: /home/me/Out");
  expect(await sent()).toEqual([{ name: "notes", sandbox: { network: true, read: ["/home/me/Notes"], write: ["/home/me/Out"], unconfined: false } }]);
  // Cancel changes nothing.
  await card.getByTestId("connection-grant-edit").click();
  await card.getByTestId("grant-unconfined").check();
  await expect(card.getByTestId("grant-unconfined-warning")).toBeVisible();
  await card.getByTestId("grant-cancel").click();
  await expect(card).toContainText("Can use the network.");
  expect(await sent()).toHaveLength(1);
  // A server reached at a URL runs elsewhere: no permissions to change.
  await page.getByTestId("connection-add-form").click();
  await page.getByTestId("connection-name").fill("remote");
  await page.getByTestId("connection-transport").selectOption("http");
  await page.getByTestId("connection-url").fill("https://mcp.example.com/mcp");
  await page.getByTestId("connection-add-submit").click();
  await expect(page.getByTestId("connection-remote")).toBeVisible();
  await expect(page.getByTestId("connection-remote").getByTestId("connection-grant-edit")).toHaveCount(0);
});

test("changing permissions in Chinese", async ({ page }) => {
  await open(page, "zh-CN");
  await addByForm(page, "notes", "npx");
  await page.getByTestId("connection-add-submit").click();
  const card = page.getByTestId("connection-notes");
  await card.getByTestId("connection-grant-edit").click();
  await expect(card.getByTestId("connection-grant-edit")).toHaveCount(0);
  await card.getByTestId("grant-read").fill("/home/me/笔记");
  await expect(card.getByTestId("grant-preview")).toContainText("可读取：/home/me/笔记");
  await expect(card.getByTestId("grant-editor")).toContainText("下次使用时，这个连接会按新的权限重新启动。");
  await expect(card.getByTestId("grant-save")).toHaveText("保存权限");
  await card.getByTestId("grant-editor").scrollIntoViewIfNeeded();
  await page.screenshot({ path: `${SHOTS}/connections-grant-zh.png` });
  await axe(page, "connections, change permissions, zh");
  await card.getByTestId("grant-save").click();
  await expect(card).toContainText("可读取：/home/me/笔记");
});
