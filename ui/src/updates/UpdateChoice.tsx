// The first run's question (docs/ui.md, "Updates"): may VibeLife look for updates? Until the
// person answers, `preferences.updates` is "undecided" and no request is made. The answer is
// saved at once ("ask": once a day, asking before installing; "off": never); Settings changes it.
// The same card asks, above the app's screens, a person whose data folder predates the choice
// (UpdateQuestion.tsx): with a line saying what is new, and a button to close it once answered.

import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import * as client from "../client";
import { FailureText } from "../errors/Failure";
import type { CommandError, UpdateChecks } from "../wire";
import { Button, Card, Toast } from "../design";

type Props = {
  /** The card's test id (first run's by default). */
  testId?: string;
  /** A line above the question (why it is asked now). */
  intro?: string;
  /** Given: once answered, a button closes the card. */
  onDone?: () => void;
};

export function UpdateChoice({ testId = "first-run-updates", intro, onDone }: Props) {
  const { t } = useTranslation();
  const [choice, setChoice] = useState<UpdateChecks | null>(null);
  const [error, setError] = useState<CommandError | null>(null);
  useEffect(() => {
    client.settings.get().then(
      (view) => setChoice(view.settings.preferences.updates),
      (e) => setError(client.toCommandError(e)),
    );
  }, []);
  const choose = async (updates: UpdateChecks) => {
    setError(null);
    try {
      const view = await client.settings.update([{ key: "preferences.updates", value: updates }]);
      setChoice(view.settings.preferences.updates);
    } catch (e) {
      setError(client.toCommandError(e));
    }
  };
  return (
    <Card className="update-choice" data-testid={testId}>
      {intro && (choice === "undecided" || choice === null) && <p className="muted">{intro}</p>}
      <h2>{t("updates.choiceTitle")}</h2>
      <p>{t("updates.choiceText")}</p>
      {choice === "undecided" || choice === null ? (
        <div className="actions">
          <Button data-testid="updates-off" disabled={choice === null} onClick={() => void choose("off")}>
            {t("updates.choiceOff")}
          </Button>
          <Button variant="primary" data-testid="updates-ask" disabled={choice === null} onClick={() => void choose("ask")}>
            {t("updates.choiceAsk")}
          </Button>
        </div>
      ) : (
        <>
          <Toast tone="ok" data-testid="updates-chosen">
            {choice === "ask" ? t("updates.chosenAsk") : t("updates.chosenOff")}
          </Toast>
          {onDone && (
            <div className="actions">
              <Button data-testid="updates-done" onClick={onDone}>
                {t("updates.close")}
              </Button>
            </div>
          )}
        </>
      )}
      {error && (
        <Toast tone="danger" className="small">
          <FailureText failure={error} />
        </Toast>
      )}
    </Card>
  );
}
