// The reminder card, shown above every screen: the protocol reminders the app notified and the
// person has not answered (`reminder_notices`; which ones is the core's choice). The desktop
// notification cannot report a click on Linux, so this card is the way to the question: its
// button opens the run's conversation with the question shown above the composer. Read at
// start, every 30 s and when the window regains focus (into the app store; a failed read shows
// its line here and the last answer stays); hiding one is for this session only.

import { useCallback, useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import * as client from "../client";
import { FailureLine } from "../errors/FailureLine";
import { dispatch, recovered, report, selectReminders, useApp } from "../store";
import type { ReminderView } from "../wire";
import "./reminders.css";
import { Button, Card } from "../design";

const EVERY_MS = 30_000;

/** A reminder's identity: run, step and the protocol's time. */
export const reminderKey = (r: ReminderView) => `${r.protocol_run_id}/${r.step}/${r.at}`;

/** `answering`: the reminder whose question the chat has open (however it was opened: this
 * card, Today or a notification), not shown twice. */
export function ReminderCard({ onOpen, answering = null }: { onOpen: (r: ReminderView) => void; answering?: string | null }) {
  const notices = useApp(selectReminders);
  const [hidden, setHidden] = useState<string[]>([]);
  const read = useCallback(() => {
    client.reminders.notices().then(
      (notices) => {
        dispatch({ type: "reminders", notices });
        recovered("reminders");
      },
      (e) => report("reminders", e),
    );
  }, []);
  useEffect(() => {
    read();
    const timer = setInterval(read, EVERY_MS);
    window.addEventListener("focus", read);
    return () => {
      clearInterval(timer);
      window.removeEventListener("focus", read);
    };
  }, [read]);
  const shown = notices.filter((r) => !hidden.includes(reminderKey(r)) && reminderKey(r) !== answering);
  if (shown.length === 0) return <FailureLine area="reminders" />;
  return (
    <div className="reminder-cards">
      <FailureLine area="reminders" />
      {shown.map((r) => (
        <ReminderItem
          key={reminderKey(r)}
          reminder={r}
          onAnswer={() => {
            setHidden((h) => [...h, reminderKey(r)]);
            onOpen(r);
          }}
          onHide={() => setHidden((h) => [...h, reminderKey(r)])}
        />
      ))}
    </div>
  );
}

/** One reminder: when, its question, "answer" (and "hide" when given). The card above every
 * screen and the Today screen both show reminders with it. */
export function ReminderItem({
  reminder: r,
  onAnswer,
  onHide,
  answerLabel,
}: {
  reminder: ReminderView;
  onAnswer: () => void;
  onHide?: () => void;
  answerLabel?: string;
}) {
  const { t } = useTranslation();
  return (
    <Card as="section" tone="accent" className="reminder-card" data-testid="reminder-card" aria-label={t("reminders.card", { time: r.time })}>
      <p className="reminder-when muted small">{t("reminders.card", { time: r.time })}</p>
      <p className="reminder-question">{r.question}</p>
      <div className="actions">
        <Button variant="primary" data-testid="reminder-open" onClick={onAnswer}>
          {answerLabel ?? t("reminders.answer")}
        </Button>
        {onHide && (
          <Button data-testid="reminder-hide" onClick={onHide}>
            {t("reminders.hide")}
          </Button>
        )}
      </div>
    </Card>
  );
}
