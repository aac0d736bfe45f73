// The coaching dashboard, read from the lifecoach skill's state (`skill_state`): north star
// (vision, anti-vision), goals (year, month), current levers and constraints, and the recent
// journal with a search. Each value is edited in place and written back with `write_state`
// (a deep merge into its section); a journal entry with `edit_state_entry` (that one entry of
// the list, checked by its place and `_created_at`), whose words are screened like a journal
// entry's (the crisis notice shows above the journal when they read as a risk); a coach's tool
// changing the state refreshes it.

import { useCallback, useEffect, useMemo, useState } from "react";
import { useTranslation } from "react-i18next";
import * as client from "../client";
import { FailureText } from "../errors/Failure";
import type { CommandError } from "../wire";
import { EditableText } from "./EditableText";
import { JournalEntry } from "./JournalEntry";
import { Card, EmptyState, Toast } from "../design";
import { SafetyNotice } from "../safety/SafetyNotice";
import { fromNotice, type SafetyView } from "../safety/view";

export const COACH_SKILL = "lifecoach";

type Obj = Record<string, unknown>;
const obj = (v: unknown): Obj => (v && typeof v === "object" && !Array.isArray(v) ? (v as Obj) : {});
const str = (v: unknown): string | null => (typeof v === "string" ? v : typeof v === "number" ? String(v) : null);
const strs = (v: unknown): string[] => (Array.isArray(v) ? v.map((x) => (typeof x === "string" ? x : JSON.stringify(x))) : []);

/** The fields shown, by section: [section, key, is a list]. */
const FIELDS: Array<[string, string, boolean]> = [
  ["north_star", "vision", false],
  ["north_star", "anti_vision", false],
  ["goals", "year", false],
  ["goals", "month", false],
  ["current", "daily_levers", true],
  ["current", "constraints", true],
];

export function Dashboard() {
  const { t } = useTranslation();
  const [state, setState] = useState<Obj | null>(null);
  const [error, setError] = useState<CommandError | null>(null);
  const [query, setQuery] = useState("");
  const [safety, setSafety] = useState<SafetyView | null>(null);
  const load = useCallback(() => {
    client.profile.state(COACH_SKILL).then((s) => setState(obj(s)), (e) => setError(client.toCommandError(e)));
  }, []);
  useEffect(load, [load]);
  // The coach changed this skill's state during a turn (a journal entry, a goal): load it again.
  useEffect(
    () =>
      client.stateChanges.subscribe((c) => {
        if (c.skill === COACH_SKILL) load();
      }),
    [load],
  );

  const write = async (section: string, key: string, value: string | string[]) => {
    setError(null);
    try {
      await client.profile.writeState(COACH_SKILL, section, { [key]: value });
      load();
    } catch (e) {
      setError(client.toCommandError(e));
      throw e;
    }
  };

  const editEntry = async (index: number, entry: Obj, created: string) => {
    setError(null);
    try {
      const edited = await client.profile.editEntry(COACH_SKILL, "journal", index, created, entry);
      setSafety(fromNotice(edited.safety));
      load();
    } catch (e) {
      setError(client.toCommandError(e));
      throw e;
    }
  };

  const journal = useMemo(() => (Array.isArray(state?.journal) ? (state.journal as unknown[]).map(obj) : []), [state]);
  /** Entries with their place in the whole list (the core names an entry by it). */
  const shown = useMemo(() => {
    const q = query.trim().toLowerCase();
    const all = journal.map((e, index) => ({ e, index }));
    const hits = q ? all.filter(({ e }) => JSON.stringify(e).toLowerCase().includes(q)) : all;
    return hits.slice(0, 20);
  }, [journal, query]);

  if (!state) return error ? <FailureText failure={error} /> : <p className="muted">{t("app.starting")}</p>;
  const groups = ["north_star", "goals", "current"];
  return (
    <div className="dashboard">
      {error && (
        <Toast as="p" tone="danger">
          <FailureText failure={error} />
        </Toast>
      )}
      <div className="dash-grid">
        {groups.map((section) => (
          <Card as="section" key={section} aria-labelledby={`dash-${section}`}>
            <h3 id={`dash-${section}`}>{t(`me.dash.${section as "goals"}`)}</h3>
            {FIELDS.filter(([s]) => s === section).map(([s, key, list]) => {
              const raw = obj(state[s])[key];
              return (
                <EditableText
                  key={key}
                  label={t(`me.field.${key as "vision"}`)}
                  value={list ? strs(raw) : str(raw)}
                  list={list}
                  testId={`state-${s}-${key}`}
                  onSave={(v) => write(s, key, v)}
                />
              );
            })}
          </Card>
        ))}
      </div>
      <Card as="section" className="journal" aria-labelledby="dash-journal">
        <div className="card-head">
          <h3 id="dash-journal">{t("me.dash.journal")}</h3>
          <input
            type="search"
            aria-label={t("me.journalSearch")}
            placeholder={t("me.journalSearch")}
            value={query}
            onChange={(e) => setQuery(e.target.value)}
          />
        </div>
        {safety && <SafetyNotice safety={safety} />}
        {shown.length === 0 && <EmptyState>{journal.length ? t("me.journalNoMatch") : t("me.journalEmpty")}</EmptyState>}
        <ul className="journal-list">
          {shown.map(({ e, index }) => (
            <JournalEntry key={`${index}-${String(e._created_at)}`} entry={e} onSave={(entry) => editEntry(index, entry, String(e._created_at ?? ""))} />
          ))}
        </ul>
      </Card>
    </div>
  );
}
