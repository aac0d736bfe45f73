// The reminder question above the composer, after the reminder card opened its conversation:
// it says which question the next message answers (the core saves that message as the answer).

import { useTranslation } from "react-i18next";
import type { ReminderView } from "../wire";
import { Button, Card } from "../design";

export function ReminderQuestion({ reminder, onClose }: { reminder: ReminderView; onClose: () => void }) {
  const { t } = useTranslation();
  return (
    <Card tone="accent" className="reminder-question-card" data-testid="reminder-question" role="note">
      <p className="muted small">{t("reminders.answering", { time: reminder.time })}</p>
      <p className="reminder-question">{reminder.question}</p>
      <Button variant="link" onClick={onClose} aria-label={t("reminders.close")}>
        {t("reminders.close")}
      </Button>
    </Card>
  );
}
