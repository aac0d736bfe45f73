// The coaching dashboard, read from the lifecoach skill's state (`skill_state`): north star
// (vision, anti-vision), goals (year, month), current levers and constraints, and the recent
// journal with a search. Each value is edited in place and written back with `write_state`
// (a deep merge into its section); a coach's tool changing the state refreshes it.

import { useCallback, useEffect, useMemo, useState } from "react";
import { useTranslation } from "react-i18next";
import * as client from "../client";
import { FailureText } from "../errors/Failure";
import type { CommandError } from "../wire";
import { EditableText } from "./EditableText";

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
  const load = useCallback(() => {
    client.profile.state(COACH_SKILL).then((s) => setState(obj(s)), (e) => setError(client.toCommandError(e)));
  }, []);
  useEffect(load, [load]);

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

  const journal = useMemo(() => (Array.isArray(state?.journal) ? (state.journal as unknown[]).map(obj) : []), [state]);
  const shown = useMemo(() => {
    const q = query.trim().toLowerCase();
    const hits = q ? journal.filter((e) => JSON.stringify(e).toLowerCase().includes(q)) : journal;
    return hits.slice(0, 20);
  }, [journal, query]);

  if (!state) return error ? <FailureText failure={error} /> : <p className="muted">{t("app.starting")}</p>;
  const groups = ["north_star", "goals", "current"];
  return (
    <div className="dashboard">
      {error && (
        <p className="bad" role="alert">
          <FailureText failure={error} />
        </p>
      )}
      <div className="dash-grid">
        {groups.map((section) => (
          <section key={section} className="card" aria-labelledby={`dash-${section}`}>
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
          </section>
        ))}
      </div>
      <section className="card journal" aria-labelledby="dash-journal">
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
        {shown.length === 0 && <p className="muted small">{journal.length ? t("me.journalNoMatch") : t("me.journalEmpty")}</p>}
        <ul className="journal-list">
          {shown.map((e, i) => (
            <li key={i} data-testid="journal-entry">
              <span className="muted small">
                {str(e.date) ?? str(e._created_at)?.slice(0, 10) ?? ""}
                {str(e.mood) && ` · ${t("me.mood", { mood: str(e.mood) })}`}
              </span>
              <span>{[...strs(e.highlights), ...strs(e.lessons), str(e.text) ?? "", str(e.tomorrow) ?? ""].filter(Boolean).join(" · ")}</span>
            </li>
          ))}
        </ul>
      </section>
    </div>
  );
}
