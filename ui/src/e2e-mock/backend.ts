// A fake desktop shell for browser tests and the streaming benchmark (built only with
// `vite build --mode e2e`). It answers every command of the typed client through
// `@tauri-apps/api/mocks` and streams runs by replaying REAL `vibe chat --json` output
// (../../fixtures/*.jsonl), with this conversation's ids. Everything it sends to the webview
// is recorded in `window.__vibeMock.toWebview` so tests can check what crossed the boundary.

import { mockIPC } from "@tauri-apps/api/mocks";
import type { ChatMessage, Commands, ConversationSummary, CrisisResources, Encryption, Envelope, PresetView, Settings, SettingsView, StopReason, TurnInput } from "../wire";
import type { Call } from "./call";
import { createInsights } from "./insights";
import { createMe } from "./me";
import { createModels } from "./models";
import { createProtocols } from "./protocols";
import { createReminders } from "./reminders";
import { applyChange, encryptionOf, initialSettings } from "./settings";
import { AT_RISK, pickScript, type Script } from "./scripts";
import { createSkills } from "./skills";
import { createJournal } from "./journal";
import { createMcp } from "./mcp";
import { createSync } from "./sync";
import { createToday } from "./today";
import { createUpdates, type UpdatesState } from "./updates";
import { UPDATE_FOUND } from "../updates/UpdateCheck";

interface Run {
  id: string;
  conversationId: string;
  channel: number;
  index: number;
  seq: number;
  timer: ReturnType<typeof setTimeout> | null;
  queue: Envelope[];
  /** Events to play after the approval decision (granted / denied). */
  after: { granted: Envelope[]; denied: Envelope[] } | null;
  done: boolean;
  /** Resolves the pending `send_message` call. */
  finished: ((stopReason: StopReason) => void) | null;
}

interface MockState {
  /** Every payload the backend sent to the webview (command results and channel messages), as JSON. */
  toWebview: string[];
  /** Every command the webview invoked, with its arguments as JSON (channels shown by id). */
  fromWebview: Array<{ cmd: string; args: string }>;
  /** The fake keychain: base URL → key. Never sent back. */
  keychain: Map<string, string>;
  /** Milliseconds between streamed events (the benchmark sets 0 and drives deltas itself). */
  delayMs: number;
  /** The settings document, as the core answers it in `SettingsView.settings` (but `storage`). */
  settings: Settings;
  /** Settings were saved (first run is over). */
  configured: boolean;
  /** The encryption mode chosen by `unlock_database`, if it ran. */
  encryption?: Encryption;
  /** Pushes one envelope to the live run's channel (benchmark). */
  emit: (e: Envelope) => void;
  /** Stands in for editing a skill on disk; `notify`: the registry's watcher reports it. */
  editSkill: (name: string, fixed: boolean, notify: boolean) => void;
  /** Stands in for the coach's `append_to_list` in the live run: stored, then `state_changed`. */
  coachAppends: (list: string, entry: Record<string, unknown>) => void;
  /** The OS autostart entry (`set_autostart`). */
  autostart: boolean;
  /** How often `close_window` ran (the window closed as the setting says). */
  windowClosed: number;
  /** The fake update server (updates.ts): requests that reached it, installs. */
  updates: UpdatesState;
}

declare global {
  interface Window {
    __vibeMock: MockState;
    __TAURI_INTERNALS__: { runCallback: (id: number, data: unknown) => void };
  }
}

const preset = (id: string, label: string, base_url: string, needs_key: boolean, default_model: string | null = null): PresetView => ({
  id,
  label,
  base_url,
  needs_key,
  default_model,
  model_optional: false,
});
const PRESETS: PresetView[] = [
  preset("ollama", "Ollama", "http://127.0.0.1:11434/v1", false),
  preset("lmstudio", "LM Studio", "http://127.0.0.1:1234/v1", false),
  preset("deepseek", "DeepSeek", "https://api.deepseek.com/v1", true, "deepseek-chat"),
  preset("openai", "OpenAI", "https://api.openai.com/v1", true, "gpt-4o-mini"),
  preset("custom", "Custom", "", false),
];
const DATA_DIR = "/home/me/.local/share/app.vibelife.desktop";
const fail = (kind: string, message: string) => ({ error: { kind, message } });

export function installMockBackend() {
  const params = new URLSearchParams(location.search);
  const mock: MockState = {
    toWebview: [],
    fromWebview: [],
    keychain: new Map(),
    delayMs: Number(params.get("delay") ?? 30),
    settings: initialSettings(params.get("lang")),
    configured: false,
    autostart: false,
    windowClosed: 0,
    updates: { serverRequests: 0, checkedToday: false, installs: 0, clock: () => ({ outcome: "not_allowed" }) },
    emit: (e) => live && send(live, e),
    editSkill: (name, fixed, notify) => skills.editSkill(name, fixed, notify),
    coachAppends: (list, entry) => {
      const stored = me.lifecoach[list];
      me.lifecoach[list] = [{ ...entry, _created_at: new Date().toISOString() }, ...(Array.isArray(stored) ? stored : [])];
      if (live) send(live, { type: "state_changed", skill: "lifecoach", paths: [list] } as Envelope);
    },
  };
  window.__vibeMock = mock;
  /** With the crisis contacts of its newest notice, which `get_conversation` gives back as the
   * core does when a message is marked. */
  const conversations = new Map<string, ConversationSummary & { messages: ChatMessage[]; crisis?: CrisisResources }>();
  let messageId = 0;
  const message = (role: "user" | "assistant", content: string, run_id: string | null): ChatMessage => ({
    id: ++messageId,
    role,
    content,
    run_id,
    interrupted: false,
    created_at: new Date().toISOString(),
  });
  let live: Run | null = null;
  let counter = 0;
  const protocols = createProtocols();
  /** Screens' commands answered by their own modules: each returns undefined for others. */
  const me = createMe();
  const skills = createSkills((channel, index, env) => window.__TAURI_INTERNALS__.runCallback(channel, { index, message: out(env) }));
  const reminders = createReminders(params);
  const models = createModels({
    send: (channel, index, env) => window.__TAURI_INTERNALS__.runCallback(channel, { index, message: out(env) }),
    delayMs: () => mock.delayMs,
    use: (id) => {
      mock.settings.llm = { ...mock.settings.llm, preset: "local", model: id };
      mock.configured = true;
    },
    inUse: () => (mock.settings.llm.preset === "local" ? mock.settings.llm.model : null),
    brokenCatalog: params.get("catalog") === "broken",
  });
  const insights = createInsights(params);
  const handlers = [protocols.handle, me.handle, skills.handle, reminders.handle, models.handle, insights.handle];
  const journal = createJournal(() => (me.lifecoach.journal ??= []) as Array<Record<string, unknown>>);
  const today = createToday({
    entries: journal.entries,
    ask: (c) => protocols.handle(c) ?? reminders.handle(c),
    lastConversation: () => [...conversations.values()].map(summary).sort((a, b) => b.updated_at.localeCompare(a.updated_at))[0] ?? null,
    noPrompts: params.get("prompts") === "none",
  });
  // `?updates=ask|off|undecided`: the person's saved choice. Without it: "undecided" on first run
  // (a new data folder), else "off" (a folder set up with the question answered, so the tests of
  // other screens do not meet the question a folder from before the choice gets).
  const updatesChoice = params.get("updates") ?? (params.get("firstRun") === "1" ? "undecided" : "off");
  const saved = updatesChoice === "ask" || updatesChoice === "undecided" ? updatesChoice : "off";
  mock.settings = applyChange(mock.settings, { key: "preferences.updates", value: saved });
  const updates = createUpdates(params, () => mock.settings, () => window.dispatchEvent(new Event(UPDATE_FOUND)));
  mock.updates = updates.state;
  handlers.push(journal.handle, today.handle, updates.handle);
  handlers.push(createMcp(mock.keychain).handle);
  handlers.push(createSync(params, mock.keychain, (channel, index, env) => window.__TAURI_INTERNALS__.runCallback(channel, { index, message: out(env) })).handle);
  let locked = params.get("locked");
  // `?long=N`: a stored conversation of N messages (Markdown replies, CJK) to open.
  const long = Number(params.get("long") ?? 0);
  if (long > 0) {
    const messages = Array.from({ length: long }, (_, i) =>
      i % 2 === 0
        ? message("user", `第 ${i} 条：今天的心情怎么样？`, null)
        : message("assistant", `## 回复 ${i}\n\n听起来你今天**很忙**。\n\n1. 深呼吸三次；\n2. 写下一件小事。\n\n| 时间 | 事情 |\n|---|---|\n| 早上 | 散步 |`, `run-old-${i}`),
    );
    const at = new Date(Date.UTC(2026, 0, 1)).toISOString();
    conversations.set("long", { id: "long", title: "一千条消息", skill: null, scenario: null, voice_mode: null, created_at: at, updated_at: at, messages });
  }

  const reminderConversation = reminders.conversation((role, content) => message(role, content, null));
  if (reminderConversation) conversations.set(reminderConversation.id, reminderConversation);

  /** A command's answer, checked against its response type in the command list. */
  const reply = <K extends keyof Commands>(_cmd: K, v: Commands[K][1] | Promise<Commands[K][1]>) => out(v);
  const out = <T>(v: T): T => {
    mock.toWebview.push(JSON.stringify(v ?? null));
    return v;
  };

  function send(run: Run, e: Envelope) {
    const env = { ...e, run_id: run.id, seq: run.seq++ } as Envelope;
    if (env.type === "run_started") env.conversation_id = run.conversationId;
    const message = out(env);
    window.__TAURI_INTERNALS__.runCallback(run.channel, { index: run.index++, message });
    const conv = conversations.get(run.conversationId);
    const last = conv?.messages.at(-1);
    if (conv && last?.role === "assistant") {
      if (env.type === "assistant_delta") last.content += env.text;
      if (env.type === "run_finished") last.interrupted = env.stop_reason !== "completed";
    }
    if (env.type === "run_finished") {
      run.done = true;
      const finished = run.finished;
      setTimeout(() => finished?.(env.stop_reason), 0);
      if (conv) conv.updated_at = new Date().toISOString();
      live = null;
    }
  }

  function pump(run: Run) {
    run.timer = null;
    while (!run.done && run.queue.length > 0) {
      const e = run.queue.shift() as Envelope;
      send(run, e);
      if (e.type === "approval_required") return; // waits for resolve_approval
      if (mock.delayMs > 0 && (e.type === "assistant_delta" || e.type === "reasoning_delta")) {
        run.timer = setTimeout(() => pump(run), mock.delayMs);
        return;
      }
    }
  }

  /** Starts a run; resolves like the shell's `send_message`, when the run has ended. */
  function start(
    conversationId: string | null,
    text: string,
    channel: { id: number },
    retry: boolean,
    chosen: string | null = null,
    mintedRunId: string | null = null,
  ): Promise<Commands["send_message"][1]> {
    let id = conversationId;
    if (!id || !conversations.has(id)) {
      id = `conv-${++counter}`;
      const now = new Date().toISOString();
      conversations.set(id, { id, title: text.slice(0, 30), skill: null, scenario: null, voice_mode: null, created_at: now, updated_at: now, messages: [] });
    }
    const conv = conversations.get(id);
    // The run id the UI minted (as the core keeps it), else one made here.
    const runId = mintedRunId ?? `run-${++counter}`;
    if (conv && !retry) conv.messages.push(message("user", text, runId));
    conv?.messages.push(message("assistant", "", runId));
    const lapsed = retry ? null : protocols.lapse(text, chosen !== null);
    // A message at risk is not a protocol answer: the safety path pauses the live run instead.
    const risky = !retry && !chosen && AT_RISK.test(text);
    const answer = chosen ? protocols.choose(chosen, text, id) : retry || risky ? null : protocols.answer(text);
    const screened: Script = answer ? { events: answer, after: null } : pickScript(text);
    const notice = screened.events.findIndex((e) => e.type === "safety_notice") + 1;
    const paused = risky && notice > 0 ? protocols.pauseForSafety() : [];
    const picked: Script = { ...screened, events: [...screened.events.slice(0, notice), ...paused, ...screened.events.slice(notice)] };
    protocols.note(picked.events);
    // A lapsed invitation is told right after the run starts, as the core's protocol hook does.
    const at = picked.events.findIndex((e) => e.type === "run_started") + 1;
    const script: Script = lapsed ? { ...picked, events: [...picked.events.slice(0, at), lapsed, ...picked.events.slice(at)] } : picked;
    // A notice marks the person's message, as the core's safety path does.
    const raised = script.events.find((e) => e.type === "safety_notice");
    const asked = retry ? undefined : conv?.messages.at(-2);
    if (conv && asked && raised?.type === "safety_notice") {
      asked.safety = { risk: raised.risk, category: raised.category };
      conv.crisis = { resources: raised.resources, locale: raised.locale };
    }
    // The conversation takes the skill its run activated, as the core keeps it.
    const skill = script.events.find((e) => e.type === "run_started")?.skill;
    if (conv && skill) conv.skill = skill;
    const run: Run = {
      id: runId,
      conversationId: id,
      channel: channel.id,
      index: 0,
      seq: 0,
      timer: null,
      queue: script.events.map((e) => (e.type === "run_started" ? { ...e, user_message: text } : e)),
      after: script.after,
      done: false,
      finished: null,
    };
    live = run;
    // `?startDelay=ms`: the run waits before its first event (as a turn waiting for the
    // database's write lock does), so a Stop can come before any event names the run.
    run.timer = setTimeout(() => pump(run), Number(params.get("startDelay") ?? 0));
    return new Promise((resolve) => {
      run.finished = (stop_reason: StopReason) =>
        resolve({ run_id: run.id, conversation_id: run.conversationId, stop_reason, text: conv?.messages.at(-1)?.content ?? "", usage: { prompt_tokens: 0, completion_tokens: 0, total_tokens: 0 }, skill: null });
    });
  }

  // `?fail=cmd,cmd`: those commands fail as a data folder that cannot be read makes them fail.
  const failing = new Set((params.get("fail") ?? "").split(",").filter(Boolean));
  mockIPC((cmd, raw) => {
    const args = (raw ?? {}) as Record<string, unknown>;
    mock.fromWebview.push({ cmd, args: JSON.stringify(args, (_k, v) => (v && typeof v === "object" && "id" in v && "onmessage" in v ? `channel:${v.id}` : v)) });
    if (failing.has(cmd)) throw out(fail("database", `${cmd}: database is locked`));
    if (cmd === "plugin:app|version") return out("0.1.0");
    // Typed by the command list: each case below sees its own command's request.
    const call = { cmd, request: args.request ?? {} } as Call;
    const { cmd: name, request } = call;
    switch (name) {
      case "send_message": {
        const input = request.input as TurnInput;
        // `?sendFails=endpoint`: the command itself fails, with the hint the core gives.
        if (params.get("sendFails") === "endpoint")
          throw out({
            error: { kind: "network", message: "cannot connect to http://127.0.0.1:9/v1: connection refused" },
            hint: { type: "endpoint", base_url: "http://127.0.0.1:9/v1" },
          });
        const conversationId = request.conversation_id as string | null;
        if (input.type === "say") reminders.answered(conversationId);
        if (input.type === "retry" && !conversationId)
          throw out(fail("invalid_input", "a retry needs the conversation whose last message to answer again"));
        if (input.type === "choose") {
          if (!conversationId) throw out(fail("invalid_input", "a protocol choice needs its conversation"));
          return start(conversationId, input.label, args.onEvent as { id: number }, false, input.protocol_id, request.run_id).then(out);
        }
        const text = input.type === "retry" ? lastUser(conversationId as string) : input.text;
        return start(conversationId, text, args.onEvent as { id: number }, input.type === "retry", null, request.run_id).then(out);
      }
      case "cancel_run": {
        const run = live;
        const cancelled = !!run && run.id === request.run_id;
        if (run && cancelled && run.index === 0) {
          // Stopped before it started: as the core, nothing is stored and no event is sent.
          if (run.timer) clearTimeout(run.timer);
          const conv = conversations.get(run.conversationId);
          if (conv) conv.messages = conv.messages.filter((m) => m.run_id !== run.id);
          if (conv && conv.messages.length === 0) conversations.delete(conv.id);
          run.done = true;
          live = null;
          const finished = run.finished;
          setTimeout(() => finished?.("cancelled"), 0);
        } else if (run && cancelled) {
          if (run.timer) clearTimeout(run.timer);
          run.queue = [];
          send(run, {
            type: "run_finished",
            stop_reason: "cancelled",
            usage: { prompt_tokens: 0, completion_tokens: 0, total_tokens: 0 },
            rounds: 1,
            tool_calls: 0,
          } as Envelope);
        }
        return reply(name, { cancelled });
      }
      case "resolve_approval": {
        const run = live;
        if (run?.after) {
          const approved = Boolean(request.approved);
          send(run, { type: "approval_resolved", request_id: String(request.request_id), approved, by: "user" } as Envelope);
          run.queue = [...(approved ? run.after.granted : run.after.denied)];
          run.after = null;
          setTimeout(() => pump(run), mock.delayMs);
          return reply(name, { resolved: true });
        }
        return reply(name, { resolved: false });
      }
      case "list_conversations":
        return reply(name, { conversations: [...conversations.values()].map(summary).reverse() });
      case "search_conversations":
        return reply(name, { conversations: [...conversations.values()].filter((c) => (c.title ?? "").includes(String(request.query))).map(summary) });
      case "get_conversation": {
        const c = conversations.get(String(request.id));
        if (!c) throw out(fail("not_found", `no conversation ${String(request.id)}`));
        const marked = c.messages.some((m) => m.safety);
        return reply(name, { conversation: summary(c), messages: c.messages, ...(marked && c.crisis ? { crisis_resources: c.crisis } : {}) });
      }
      case "rename_conversation": {
        const c = conversations.get(String(request.id));
        if (!c) throw out(fail("not_found", `no conversation ${String(request.id)}`));
        c.title = String(request.title) || null;
        return reply(name, summary(c));
      }
      case "delete_conversation":
        conversations.delete(String(request.id));
        return reply(name, { deleted: String(request.id), runs_removed: [] });
      case "get_settings":
        // As the shell: no app, so no settings, until the folder is unlocked.
        if (locked)
          throw out({ error: { kind: "passphrase_needed", message: `the database in ${DATA_DIR} is locked` }, hint: { type: "db_passphrase", data_dir: DATA_DIR } });
        return reply(name, settingsView());
      case "update_settings": {
        // Checked together as the core does: on an error nothing changes.
        const next = request.changes.reduce(applyChange, mock.settings);
        const q = next.preferences.reminders.quiet_hours;
        if (q && q.start === q.end)
          throw out({ error: { kind: "settings", message: `settings.json: "preferences.reminders.quiet_hours": quiet hours start and end at the same time (${q.start})` }, hint: null });
        mock.settings = next;
        mock.configured = true;
        return reply(name, settingsView());
      }
      case "set_api_key":
        mock.keychain.set(String(request.base_url), String(request.key));
        return reply(name, keyStatus(String(request.base_url)));
      case "clear_api_key":
        mock.keychain.delete(String(request.base_url));
        return reply(name, keyStatus(String(request.base_url)));
      case "api_key_status":
        return reply(name, keyStatus(String(request.base_url)));
      case "test_connection": {
        const base_url = String(request.base_url);
        const model = (request.model as string | null) ?? null;
        return reply(name, 
          base_url.includes("11434")
            ? { ok: true, base_url, model, preset: "ollama", reply: "Hi", error: null }
            : { ok: false, base_url, model, preset: "custom", reply: "", error: { kind: "network", message: `no model reachable at ${base_url}` } },
        );
      }
      case "list_models":
        return reply(name, { base_url: String(request.base_url), models: [{ id: "qwen2.5" }, { id: "llama3.2" }] });
      case "open_data_dir":
        return reply(name, null);
      case "needs_first_run":
        // `?locked=passphrase`: a data folder encrypted with the passphrase "open sesame";
        // `?locked=nokey`: a new folder and no keychain, until unlock_database chooses.
        if (locked === "passphrase")
          throw out({ error: { kind: "passphrase_needed", message: `the database in ${DATA_DIR} is encrypted with a passphrase` }, hint: { type: "db_passphrase", data_dir: DATA_DIR } });
        if (locked === "nokey")
          throw out({ error: { kind: "no_database_key", message: "the OS keychain cannot be used" }, hint: { type: "db_key", data_dir: DATA_DIR } });
        return reply(name, params.get("firstRun") === "1" && !mock.configured);
      case "unlock_database": {
        const passphrase = (request.passphrase as string | null) ?? null;
        if (locked === "passphrase" && passphrase !== "open sesame")
          throw out({ error: { kind: "wrong_key", message: "the passphrase does not open the database (or the file is damaged); nothing was changed" }, hint: null });
        const encryption = request.no_encryption ? "none" : "passphrase";
        locked = null;
        mock.encryption = encryption;
        return reply(name, { encryption });
      }
      case "detect_local_servers":
        return reply(name, 
          params.get("local") === "ollama"
            ? [{ preset: "ollama", label: "Ollama", base_url: "http://127.0.0.1:11434/v1", models: ["qwen2.5", "llama3.2"] }]
            : [],
        );
      case "ui_ready":
        return reply(name, null);
      case "close_window":
        mock.windowClosed += 1;
        return reply(name, null);
      case "autostart_status":
        return reply(name, { enabled: mock.autostart });
      case "set_autostart":
        mock.autostart = Boolean(request.enabled);
        return reply(name, { enabled: mock.autostart });
      default: {
        for (const h of handlers) {
          let answer: unknown;
          try {
            answer = h(call, args);
          } catch (e) {
            throw out(e);
          }
          // A copy, as the real IPC's JSON would be: the webview never holds the mock's objects.
          if (answer instanceof Promise)
            return answer.then(
              (a) => out(structuredClone(a)),
              (e) => {
                throw out(e);
              },
            );
          if (answer !== undefined) return out(structuredClone(answer));
        }
        throw fail("unknown_command", `the mock shell has no command ${cmd}`);
      }
    }
  });

  function lastUser(conversationId: string): string {
    const c = conversations.get(conversationId);
    return [...(c?.messages ?? [])].reverse().find((m) => m.role === "user")?.content ?? "";
  }

  function settingsView(): SettingsView {
    // `?encryption=none|passphrase|keychain`: how the data folder's database is encrypted.
    const storage = { encryption: mock.encryption ?? encryptionOf(params.get("encryption")) };
    return { file: `${DATA_DIR}/settings.json`, data_dir: DATA_DIR, settings: { ...mock.settings, storage }, presets: PRESETS };
  }

  function keyStatus(base_url: string) {
    return { base_url, is_set: mock.keychain.has(base_url), from_env: false };
  }
}

function summary(c: ConversationSummary & { messages: unknown[]; crisis?: CrisisResources }): ConversationSummary {
  const { messages: _messages, crisis: _crisis, ...rest } = c;
  return rest;
}
