// The app store's reducer and selectors: pure, fed with envelopes as the channels deliver them.

import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { parseJsonl } from "../e2e-mock/scripts";
import { initialChatState } from "../chat/state";
import type { CommandError, Envelope, ReminderView } from "../wire";
import { appReduce, initialAppState, type AppAction, type AppState } from "./app";
import { contextNotes, runStatus, selectChat, selectDownloads, selectFailure, selectSkills, skillChangeList } from "./selectors";
import { createStore } from "./store";

const fixture = (name: string) => parseJsonl(readFileSync(new URL(`../../fixtures/${name}.jsonl`, import.meta.url), "utf8"));
const apply = (actions: AppAction[], from: AppState = initialAppState) => actions.reduce(appReduce, from);
const env = (e: object) => ({ run_id: "", seq: 0, ts: "", ...e }) as Envelope;
const failure: CommandError = { error: { kind: "io", message: "disk gone" }, hint: null };

describe("the app store's reducer", () => {
  it("reduces a run's events in the chat slice exactly as the chat's reducer does", () => {
    const events = fixture("text");
    const s = apply(events.map((e) => ({ type: "chat", action: { type: "event", env: e } })));
    expect(s.chat.messages.at(-1)).toMatchObject({ role: "assistant", status: "done" });
    expect(s.chat.usage.total_tokens).toBeGreaterThan(0);
    // Everything else is untouched.
    expect(s.skills).toBe(initialAppState.skills);
    expect(s.failures).toBe(initialAppState.failures);
  });

  it("tells the chat and the Skills screen about a skill folder that changed on disk", () => {
    const changed = env({ type: "skills_changed", changes: [{ name: "bazi", change: "invalid", problems: ["SKILL.md:1:1: x"] }] });
    const s = apply([{ type: "skills_watch", env: changed }]);
    expect(s.skills.notices).toBe(1);
    expect(s.skills.changes?.[0]?.name).toBe("bazi");
    expect(s.chat.skillChanges).toEqual({ bazi: "invalid" });
    // Opening another conversation keeps the notice; the person closes it.
    const opened = apply([{ type: "chat", action: { type: "load", state: { ...initialChatState, conversationId: "c2" } } }], s);
    expect(opened.chat.conversationId).toBe("c2");
    expect(opened.chat.skillChanges).toEqual({ bazi: "invalid" });
    const seen = apply([{ type: "chat", action: { type: "skill_changes_seen" } }], opened);
    expect(seen.chat.skillChanges).toEqual({});
  });

  it("ignores other envelopes on the watch channel", () => {
    expect(apply([{ type: "skills_watch", env: env({ type: "usage", usage: { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 } }) }])).toBe(
      initialAppState,
    );
  });

  it("a reload's changes replace the watcher's, without counting as a notice", () => {
    const s = apply([{ type: "skills_reloaded", changes: [] }]);
    expect(s.skills).toEqual({ changes: [], notices: 0 });
  });

  it("follows a download from start to its end, keeping the total until progress says more", () => {
    const progress = env({ type: "model_download_progress", id: "m", received: 50, total: 200 });
    const started = apply([{ type: "download_started", id: "m", total: 100 }]);
    expect(selectDownloads(started).progress).toEqual({ m: { received: 0, total: 100 } });
    const going = apply([{ type: "download_event", env: progress }], started);
    expect(going.downloads.progress.m).toEqual({ received: 50, total: 200 });
    const done = apply([{ type: "download_finished", id: "m" }, { type: "download_settled", id: "m" }], going);
    expect(done.downloads).toEqual({ progress: {}, failure: null, finished: "m" });
    // A new start forgets the last result; a failure is kept until cleared.
    const failed = apply(
      [
        { type: "download_started", id: "n", total: 10 },
        { type: "download_failed", id: "n", error: failure.error },
        { type: "download_settled", id: "n" },
      ],
      done,
    );
    expect(failed.downloads).toEqual({ progress: {}, failure: { id: "n", error: failure.error }, finished: null });
    expect(apply([{ type: "downloads_cleared" }], failed).downloads.failure).toBeNull();
  });

  it("keeps each area's last failure until it recovers", () => {
    const s = apply([
      { type: "failed", area: "reminders", failure },
      { type: "failed", area: "conversations", failure },
    ]);
    expect(selectFailure("reminders")(s)).toEqual(failure);
    expect(selectFailure("skills")(s)).toBeNull();
    const back = apply([{ type: "recovered", area: "reminders" }], s);
    expect(selectFailure("reminders")(back)).toBeNull();
    expect(selectFailure("conversations")(back)).toEqual(failure);
    // Recovering an area without a failure changes nothing (no re-render).
    expect(apply([{ type: "recovered", area: "reminders" }], back)).toBe(back);
  });

  it("keeps the reminder notices as the core answered them", () => {
    const r: ReminderView = { protocol_run_id: "p", skill: "lifecoach", protocol_id: "dankoe", step: 1, at: "2026-01-01T08:00:00Z", time: "08:00", due: true, answered: false, question: "今天的三件事？" };
    const s = apply([{ type: "reminders", notices: [r] }]);
    expect(s.reminders).toEqual([r]);
  });
});

describe("the selectors", () => {
  it("return pieces of the state itself, so an unrelated change re-renders nothing", () => {
    const s = apply([{ type: "failed", area: "app", failure }]);
    expect(selectChat(s)).toBe(initialAppState.chat);
    expect(selectSkills(s)).toBe(initialAppState.skills);
  });

  it("say what the coach is doing while a reply runs, and what the last reply used", () => {
    const usage = { prompt_tokens: 900, completion_tokens: 100, total_tokens: 1000 };
    expect(runStatus({ runId: null, phase: null, usage: initialChatState.usage })).toBeNull();
    expect(runStatus({ runId: "r", phase: "phase1", usage })).toEqual({ kind: "phase", phase: "phase1" });
    expect(runStatus({ runId: "r", phase: null, usage })).toBeNull();
    expect(runStatus({ runId: null, phase: "phase2", usage })).toEqual({ kind: "usage", usage });
  });

  it("add up compactions and keep the core's other context notes", () => {
    expect(contextNotes(["compacted:12", "catalog: 3 of 5 skills described", "compacted:3"])).toEqual({
      compacted: 15,
      trimmed: ["catalog: 3 of 5 skills described"],
    });
    expect(contextNotes([])).toEqual({ compacted: 0, trimmed: [] });
  });

  it("list changed skills by name", () => {
    expect(skillChangeList({ zodiac: "changed", bazi: "invalid" })).toEqual([
      { name: "bazi", change: "invalid" },
      { name: "zodiac", change: "changed" },
    ]);
  });
});

describe("the store", () => {
  it("tells its listeners about a change, and only about a change", () => {
    const store = createStore(appReduce, initialAppState);
    let calls = 0;
    const stop = store.subscribe(() => calls++);
    store.dispatch({ type: "recovered", area: "app" });
    expect(calls).toBe(0);
    store.dispatch({ type: "failed", area: "app", failure });
    expect(calls).toBe(1);
    expect(store.get().failures.app).toEqual(failure);
    stop();
    store.dispatch({ type: "recovered", area: "app" });
    expect(calls).toBe(1);
  });
});
