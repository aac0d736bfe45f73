// A fake desktop shell for browser tests and the streaming benchmark (built only with
// `vite build --mode e2e`). It answers every command of the typed client through
// `@tauri-apps/api/mocks` and streams runs by replaying REAL `vibe chat --json` output
// (../../fixtures/*.jsonl), with this conversation's ids. Everything it sends to the webview
// is recorded in `window.__vibeMock.toWebview` so tests can check what crossed the boundary.

import { mockIPC } from "@tauri-apps/api/mocks";
import type { Envelope } from "../wire";
import type { ConversationSummary, Settings } from "../client";
import { pickScript, type Script } from "./scripts";

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
  settings: Omit<Settings, "presets">;
  /** Pushes one envelope to the live run's channel (benchmark). */
  emit: (e: Envelope) => void;
}

declare global {
  interface Window {
    __vibeMock: MockState;
    __TAURI_INTERNALS__: { runCallback: (id: number, data: unknown) => void };
  }
}

const PRESETS: Settings["presets"] = [
  { name: "ollama", base_url: "http://127.0.0.1:11434/v1", needs_key: false },
  { name: "lmstudio", base_url: "http://127.0.0.1:1234/v1", needs_key: false },
  { name: "deepseek", base_url: "https://api.deepseek.com/v1", needs_key: true },
  { name: "openai", base_url: "https://api.openai.com/v1", needs_key: true },
  { name: "custom", base_url: "", needs_key: false },
];

export function installMockBackend() {
  const params = new URLSearchParams(location.search);
  const mock: MockState = {
    toWebview: [],
    fromWebview: [],
    keychain: new Map(),
    delayMs: Number(params.get("delay") ?? 30),
    settings: {
      llm: { preset: "ollama", base_url: "http://127.0.0.1:11434/v1", model: "qwen2.5", tool_mode: "auto" },
      language: params.get("lang") ?? "",
      data_dir: "/home/me/.local/share/app.vibelife.desktop",
    },
    emit: (e) => live && send(live, e),
  };
  window.__vibeMock = mock;
  const conversations = new Map<string, ConversationSummary & { messages: Array<{ role: "user" | "assistant"; text: string; interrupted?: boolean }> }>();
  let live: Run | null = null;
  let counter = 0;

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
      if (env.type === "assistant_delta") last.text += env.text;
      if (env.type === "run_finished") last.interrupted = env.stop_reason !== "completed";
    }
    if (env.type === "run_finished") {
      run.done = true;
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

  function start(conversationId: string | null, text: string, channel: { id: number }): string {
    let id = conversationId;
    if (!id || !conversations.has(id)) {
      id = `conv-${++counter}`;
      conversations.set(id, { id, title: text.slice(0, 30), updated_at: new Date().toISOString(), message_count: 0, messages: [] });
    }
    const conv = conversations.get(id);
    conv?.messages.push({ role: "user", text }, { role: "assistant", text: "" });
    const script: Script = pickScript(text);
    const run: Run = {
      id: `run-${++counter}`,
      conversationId: id,
      channel: channel.id,
      index: 0,
      seq: 0,
      timer: null,
      queue: script.events.map((e) => (e.type === "run_started" ? { ...e, user_message: text } : e)),
      after: script.after,
      done: false,
    };
    live = run;
    setTimeout(() => pump(run), 0);
    return run.id;
  }

  mockIPC((cmd, raw) => {
    const args = (raw ?? {}) as Record<string, unknown>;
    mock.fromWebview.push({ cmd, args: JSON.stringify(args, (_k, v) => (v && typeof v === "object" && "id" in v && "onmessage" in v ? `channel:${v.id}` : v)) });
    switch (cmd) {
      case "send_message": {
        const input = args.input as { say: string } | "retry";
        const text = input === "retry" ? lastUser(args.conversationId as string) : input.say;
        return out(start(args.conversationId as string | null, text, args.onEvent as { id: number }));
      }
      case "retry_last":
        return out(start(args.conversationId as string, lastUser(args.conversationId as string), args.onEvent as { id: number }));
      case "cancel_run": {
        const run = live;
        if (run && run.id === args.runId) {
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
        return out(null);
      }
      case "resolve_approval": {
        const run = live;
        if (run?.after) {
          const approved = Boolean(args.approved);
          send(run, { type: "approval_resolved", request_id: String(args.requestId), approved, by: "user" } as Envelope);
          run.queue = [...(approved ? run.after.granted : run.after.denied)];
          run.after = null;
          setTimeout(() => pump(run), mock.delayMs);
        }
        return out(null);
      }
      case "conversations_list":
        return out([...conversations.values()].map(summary));
      case "conversations_search":
        return out([...conversations.values()].filter((c) => c.title.includes(String(args.query))).map(summary));
      case "conversations_get": {
        const c = conversations.get(String(args.id));
        if (!c) throw { kind: "not_found", message: `no conversation ${String(args.id)}` };
        return out({ summary: summary(c), messages: c.messages });
      }
      case "conversations_rename": {
        const c = conversations.get(String(args.id));
        if (c) c.title = String(args.title);
        return out(null);
      }
      case "conversations_delete":
        conversations.delete(String(args.id));
        return out(null);
      case "settings_get":
        return out({ ...mock.settings, presets: PRESETS });
      case "settings_set": {
        const v = args.value as Pick<Settings, "llm" | "language">;
        mock.settings = { ...mock.settings, llm: v.llm, language: v.language };
        return out(null);
      }
      case "api_key_set":
        mock.keychain.set(String(args.baseUrl), String(args.key));
        return out(null);
      case "api_key_clear":
        mock.keychain.delete(String(args.baseUrl));
        return out(null);
      case "api_key_is_set":
        return out(mock.keychain.has(String(args.baseUrl)));
      case "test_connection":
        return out(
          String(args.baseUrl).includes("11434")
            ? { ok: true, models: ["qwen2.5", "llama3.2"], error: null }
            : { ok: false, models: [], error: { kind: "network", message: `no model reachable at ${String(args.baseUrl)}` } },
        );
      case "list_models":
        return out(["qwen2.5", "llama3.2"]);
      case "open_data_dir":
        return out(null);
      default:
        throw { kind: "unknown_command", message: `the mock shell has no command ${cmd}` };
    }
  });

  function lastUser(conversationId: string): string {
    const c = conversations.get(conversationId);
    return [...(c?.messages ?? [])].reverse().find((m) => m.role === "user")?.text ?? "";
  }
}

function summary(c: ConversationSummary & { messages: unknown[] }): ConversationSummary {
  return { id: c.id, title: c.title, updated_at: c.updated_at, message_count: c.messages.length };
}
