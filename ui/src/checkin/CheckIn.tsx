// The check-in: under ten seconds — a mood on the five-point scale (a radio group, the face and
// the word), optional feelings (the language's short list as chips, plus the person's own), one
// line, save. Checked first by the pure `checkCheckin` (the core's bounds); the core's own
// refusal or failure is shown under the form as it says it. Saved as a journal entry (`checkin`).

import { useEffect, useState, type FormEvent } from "react";
import { useTranslation } from "react-i18next";
import * as client from "../client";
import { Button, Card, Field, Tabs, Toast } from "../design";
import { FailureText } from "../errors/Failure";
import type { CommandError, JournalSaved } from "../wire";
import en from "../i18n/en.json";
import { MOODS, moodFace, moodKey } from "./mood";
import { ProblemList } from "./ProblemList";
import { checkCheckin, ownFeelings, type Problem } from "./validate";
import "./checkin.css";

/** The feelings offered (their words come from the UI's language). */
const FEELINGS = Object.keys(en.checkin.feelings) as Array<keyof typeof en.checkin.feelings>;

/** `onSaved` gets the saved entry with the crisis notice the core sent, if any. */
export function CheckIn({ onSaved }: { onSaved: (saved: JournalSaved) => void }) {
  const { t } = useTranslation();
  const [mood, setMood] = useState<number | null>(null);
  const [feelings, setFeelings] = useState<string[]>([]);
  const [own, setOwn] = useState<string[]>([]);
  const [ownText, setOwnText] = useState("");
  const [note, setNote] = useState("");
  const [problems, setProblems] = useState<Problem[]>([]);
  const [failure, setFailure] = useState<CommandError | null>(null);
  const [busy, setBusy] = useState(false);

  const offered = FEELINGS.map((k) => t(`checkin.feelings.${k}`));
  // The person's own words from recent entries come back as chips. Deliberately quiet on a
  // failure: they are a convenience, and the form works without them.
  useEffect(() => {
    let live = true;
    client.journal.list(null, 30).then(
      (recent) => live && setOwn((o) => [...new Set([...ownFeelings(recent, offered), ...o])]),
      () => undefined,
    );
    return () => {
      live = false;
    };
    // Once per form: the offered words only change with the language.
  }, []);
  const toggle = (word: string) => setFeelings((f) => (f.includes(word) ? f.filter((x) => x !== word) : [...f, word]));
  const addOwn = () => {
    const word = ownText.trim();
    if (!word) return;
    if (!own.includes(word) && !offered.includes(word)) setOwn((o) => [...o, word]);
    if (!feelings.includes(word)) setFeelings((f) => [...f, word]);
    setOwnText("");
  };
  const save = (e: FormEvent) => {
    e.preventDefault();
    const checked = checkCheckin({ mood, feelings, note });
    setFailure(null);
    if (!checked.ok) {
      setProblems(checked.problems);
      return;
    }
    setProblems([]);
    setBusy(true);
    const r = checked.request;
    client.journal.checkin(r.mood, r.feelings, r.note, r.date).then(
      (saved) => {
        setBusy(false);
        onSaved(saved);
      },
      (err) => {
        setBusy(false);
        setFailure(client.toCommandError(err));
      },
    );
  };
  const chips = [...offered, ...own];
  return (
    <Card as="section" tone="accent" className="checkin" data-testid="checkin" aria-labelledby="checkin-question">
      <form onSubmit={save} noValidate>
        <h2 id="checkin-question" className="checkin-question">
          {t("checkin.question")}
        </h2>
        <Tabs
          kind="choice"
          label={t("checkin.moodLabel")}
          value={mood === null ? null : String(mood)}
          onChange={(v) => {
            setMood(Number(v));
            // The mood is given now: its "choose a mood" line goes at once.
            setProblems((ps) => ps.filter((p) => p.field !== "mood"));
          }}
          items={MOODS.map((m) => ({
            value: String(m),
            testId: `checkin-mood-${m}`,
            label: (
              <span className="mood-choice">
                <span className="mood-face" aria-hidden="true">
                  {moodFace(m)}
                </span>
                <span>{t(moodKey(m))}</span>
              </span>
            ),
          }))}
        />
        <ProblemList problems={problems} field="mood" />
        <div role="group" aria-labelledby="checkin-feelings" className="checkin-feelings">
          <span id="checkin-feelings" className="ds-field-label">
            {t("checkin.feelingsLabel")}
          </span>
          <div className="chips">
            {chips.map((word) => (
              <button
                key={word}
                type="button"
                className="chip"
                aria-pressed={feelings.includes(word)}
                data-testid="checkin-feeling"
                onClick={() => toggle(word)}
              >
                {word}
              </button>
            ))}
          </div>
          <div className="chip-add">
            <input
              aria-label={t("checkin.own")}
              placeholder={t("checkin.own")}
              value={ownText}
              data-testid="checkin-own"
              onChange={(e) => setOwnText(e.target.value)}
              onKeyDown={(e) => {
                if (e.key === "Enter" && !e.nativeEvent.isComposing) {
                  e.preventDefault();
                  addOwn();
                }
              }}
            />
            <Button type="button" size="sm" onClick={addOwn} disabled={!ownText.trim()} data-testid="checkin-own-add">
              {t("checkin.add")}
            </Button>
          </div>
          <ProblemList problems={problems} field="feelings" />
        </div>
        <Field label={t("checkin.note")}>
          <input value={note} placeholder={t("checkin.notePlaceholder")} data-testid="checkin-note" onChange={(e) => setNote(e.target.value)} />
        </Field>
        <ProblemList problems={problems} field="note" />
        {failure && (
          <Toast as="p" tone="danger" className="small" data-testid="checkin-failed">
            {t("checkin.failed")} <FailureText failure={failure} />
          </Toast>
        )}
        <div className="actions start">
          <Button type="submit" variant="primary" disabled={busy} data-testid="checkin-save">
            {busy ? t("checkin.saving") : t("checkin.save")}
          </Button>
        </div>
      </form>
    </Card>
  );
}
