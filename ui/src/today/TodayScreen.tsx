// The Today screen, the home of the app once it is set up: a greeting for the time of day,
// today's check-in (the form, or the day's check-ins once done), reminders due ("answer now",
// the reminder UI), the active protocol's current step ("continue"), today's prompt ("write
// about it" opens the journal editor with it), the streak, and the conversation to continue.
// Everything comes from one `today` read (the core builds it); a part with nothing to show
// invites a first step (EmptyState). It owns no data: it reads, and hands actions to the app.

import { useCallback, useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import * as client from "../client";
import { CheckIn } from "../checkin/CheckIn";
import { moodFace, moodKey } from "../checkin/mood";
import { Button, Card, EmptyState, Toast } from "../design";
import { FailureLine } from "../errors/FailureLine";
import { ReminderItem } from "../reminders/ReminderCard";
import { SafetyNotice } from "../safety/SafetyNotice";
import { fromNotice, type SafetyView } from "../safety/view";
import { recovered, report, selectFailure, useApp } from "../store";
import type { ConversationSummary, JournalEntryView, ProtocolRunView, ReminderView, TodayView } from "../wire";
import { greetingFor } from "./greeting";
import "./today.css";

interface Props {
  /** Open a conversation (null: a new one). */
  onOpenConversation: (id: string | null) => void;
  onAnswerReminder: (r: ReminderView) => void;
  /** The run's conversation, where its next message continues it. */
  onContinueProtocol: (run: ProtocolRunView) => void;
  /** The journal, with a new entry about this prompt (null: the journal alone). */
  onWrite: (prompt: string | null) => void;
}

/** `YYYY-MM-DD` as the UI's language writes a day ("Sunday, 29 November"). */
export function dayLabel(date: string, lang: string): string {
  const [y, m, d] = date.split("-").map(Number);
  if (!y || !m || !d) return date;
  return new Intl.DateTimeFormat(lang, { weekday: "long", month: "long", day: "numeric" }).format(new Date(y, m - 1, d, 12));
}

export function TodayScreen({ onOpenConversation, onAnswerReminder, onContinueProtocol, onWrite }: Props) {
  const { t, i18n } = useTranslation();
  const [view, setView] = useState<TodayView | null>(null);
  const [again, setAgain] = useState(false);
  const [saved, setSaved] = useState(false);
  /** The crisis notice of the last check-in saved here, when its note read as a risk. */
  const [safety, setSafety] = useState<SafetyView | null>(null);
  const lang = i18n.language;
  const unread = useApp(selectFailure("today"));
  const load = useCallback(() => {
    client.today(lang).then(
      (v) => {
        setView(v);
        recovered("today");
      },
      (e) => report("today", e),
    );
  }, [lang]);
  useEffect(load, [load]);

  const greeting = t(`today.greeting.${greetingFor(new Date().getHours())}`);
  const checkedIn = (view?.checkins.length ?? 0) > 0;
  // A check-in just saved shows its notice open; on a later visit the day's notice is folded
  // to one line (the numbers one click away).
  const later = fromNotice(view?.safety);
  const notice = safety ?? (later && { ...later, folded: true });
  return (
    <div className="page today-page" data-testid="today">
      <header className="today-head">
        <h1>{greeting}</h1>
        {view && <p className="muted today-date">{dayLabel(view.date, lang)}</p>}
      </header>
      <FailureLine area="today" />
      {!view && unread ? (
        // The day could not be read: a check-in still can be made (it is its own command).
        <div className="today-main">
          <CheckIn
            onSaved={(s) => {
              setSaved(true);
              setSafety(fromNotice(s.safety));
              load();
            }}
          />
          {notice && <SafetyNotice key={String(notice.folded)} safety={notice} />}
          {saved && (
            <Toast as="p" tone="ok" data-testid="checkin-saved">
              {t("checkin.saved")}
            </Toast>
          )}
          <Button onClick={load}>{t("today.retry")}</Button>
        </div>
      ) : !view ? (
        <p className="muted">{t("today.loading")}</p>
      ) : (
        <div className="today-grid">
          <div className="today-main">
            {view.reminders.length > 0 && (
              <section aria-labelledby="today-reminders" className="today-reminders">
                <h2 id="today-reminders">{t("today.remindersTitle")}</h2>
                {view.reminders.map((r) => (
                  <ReminderItem key={`${r.protocol_run_id}/${r.step}/${r.at}`} reminder={r} answerLabel={t("today.answerNow")} onAnswer={() => onAnswerReminder(r)} />
                ))}
              </section>
            )}
            {saved && (
              <Toast as="p" tone="ok" data-testid="checkin-saved">
                {t("checkin.saved")}
              </Toast>
            )}
            {notice && <SafetyNotice key={String(notice.folded)} safety={notice} />}
            {checkedIn && !again ? (
              <Card as="section" className="today-checkins" aria-labelledby="today-checkins" data-testid="today-checkins">
                <div className="card-head">
                  <h2 id="today-checkins">{t("today.checkinsDone")}</h2>
                  <Button size="sm" onClick={() => {
                      setAgain(true);
                      setSaved(false);
                    }} data-testid="checkin-again">
                    {t("today.checkinAgain")}
                  </Button>
                </div>
                <ul className="checkin-list">
                  {view.checkins.map((c) => (
                    <CheckinLine key={c.id} entry={c} />
                  ))}
                </ul>
              </Card>
            ) : (
              <CheckIn
                onSaved={(s) => {
                  setAgain(false);
                  setSaved(true);
                  setSafety(fromNotice(s.safety));
                  load();
                }}
              />
            )}
            <Card as="section" className="today-prompt" aria-labelledby="today-prompt" data-testid="today-prompt">
              <h2 id="today-prompt">{t("today.promptTitle")}</h2>
              {view.prompt ? (
                <>
                  <p className="prompt-text">{view.prompt.text}</p>
                  <Button variant="primary" onClick={() => onWrite(view.prompt?.text ?? null)} data-testid="today-write">
                    {t("today.writeAbout")}
                  </Button>
                </>
              ) : (
                <EmptyState
                  title={t("today.promptEmptyTitle")}
                  action={
                    <Button onClick={() => onWrite(null)} data-testid="today-write">
                      {t("today.openJournal")}
                    </Button>
                  }
                >
                  {t("today.promptEmpty")}
                </EmptyState>
              )}
            </Card>
            {view.journal.length > 0 && (
              <Card as="section" aria-labelledby="today-journal">
                <h2 id="today-journal">{t("today.journalToday")}</h2>
                <ul className="checkin-list">
                  {view.journal.map((e) => (
                    <li key={e.id} className="today-entry">
                      {e.text.split("\n")[0]}
                    </li>
                  ))}
                </ul>
                <Button variant="link" onClick={() => onWrite(null)}>
                  {t("today.openJournal")}
                </Button>
              </Card>
            )}
          </div>
          <div className="today-side">
            <Streak view={view} />
            <Card as="section" className="today-protocol" aria-labelledby="today-protocol" data-testid="today-protocol">
              <h2 id="today-protocol">{t("today.protocolTitle")}</h2>
              {view.protocol ? (
                <>
                  <p className="today-protocol-title">{view.protocol.title}</p>
                  <p className="muted small">
                    {t("today.protocolStep", { step: view.protocol.run.step, total: view.protocol.run.total_steps, title: view.protocol.step_title })}
                  </p>
                  <div className="mini-bar" aria-hidden="true">
                    <div style={{ width: `${(Math.max(view.protocol.run.step - 1, 0) / Math.max(view.protocol.run.total_steps, 1)) * 100}%` }} />
                  </div>
                  <Button variant="primary" onClick={() => view.protocol && onContinueProtocol(view.protocol.run)} data-testid="today-continue-protocol">
                    {t("today.continue")}
                  </Button>
                </>
              ) : (
                <EmptyState
                  title={t("today.protocolEmptyTitle")}
                  action={
                    <Button onClick={() => onOpenConversation(null)} data-testid="today-ask-protocol">
                      {t("today.newConversation")}
                    </Button>
                  }
                >
                  {t("today.protocolEmpty")}
                </EmptyState>
              )}
            </Card>
            <LastConversation conversation={view.last_conversation} onOpen={onOpenConversation} />
          </div>
        </div>
      )}
    </div>
  );
}

function CheckinLine({ entry }: { entry: JournalEntryView }) {
  const { t } = useTranslation();
  return (
    <li className="checkin-line" data-testid="today-checkin">
      {entry.mood !== null && (
        <span className="checkin-mood">
          <span aria-hidden="true">{moodFace(entry.mood)}</span> {t(moodKey(entry.mood))}
        </span>
      )}
      {entry.feelings.length > 0 && <span className="muted"> · {entry.feelings.join(t("chat.listSeparator"))}</span>}
      {entry.text && <p className="checkin-note">{entry.text}</p>}
    </li>
  );
}

function Streak({ view }: { view: TodayView }) {
  const { t } = useTranslation();
  const s = view.streak;
  return (
    <Card as="section" className="today-streak" aria-labelledby="today-streak" data-testid="today-streak">
      <h2 id="today-streak">{t("today.streakTitle")}</h2>
      {s.days === 0 ? (
        <EmptyState title={t("today.streakZeroTitle")}>{t("today.streakZero")}</EmptyState>
      ) : (
        <>
          <p className="streak-days">{t("today.streak", { count: s.days })}</p>
          <p className="muted small">{s.today_done ? t("today.streakDone") : t("today.streakKeep")}</p>
          {s.longest > s.days && <p className="muted small">{t("today.streakLongest", { n: s.longest })}</p>}
        </>
      )}
    </Card>
  );
}

function LastConversation({ conversation: c, onOpen }: { conversation: ConversationSummary | null; onOpen: (id: string | null) => void }) {
  const { t, i18n } = useTranslation();
  return (
    <Card as="section" className="today-conversation" aria-labelledby="today-conversation" data-testid="today-conversation">
      <h2 id="today-conversation">{t("today.conversationTitle")}</h2>
      {c ? (
        <>
          <p className="today-conversation-title">{c.title || t("today.untitled")}</p>
          <p className="muted small">
            {t("today.updated", { when: new Intl.DateTimeFormat(i18n.language, { dateStyle: "medium", timeStyle: "short" }).format(new Date(c.updated_at)) })}
          </p>
          <Button onClick={() => onOpen(c.id)} data-testid="today-continue-conversation">
            {t("today.open")}
          </Button>
        </>
      ) : (
        <EmptyState
          title={t("today.conversationEmptyTitle")}
          action={
            <Button variant="primary" onClick={() => onOpen(null)} data-testid="today-new-conversation">
              {t("today.newConversation")}
            </Button>
          }
        >
          {t("today.conversationEmpty")}
        </EmptyState>
      )}
    </Card>
  );
}
