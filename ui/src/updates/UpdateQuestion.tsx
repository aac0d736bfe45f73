// The update question for a data folder made before VibeLife could update itself (docs/ui.md,
// "Updates"): its settings have no update choice, which reads as "undecided", and first run is
// long past, so the question is asked here, above the app's screens, until it is answered (the
// same choice as first run's, UpdateChoice.tsx). Never a silent yes or no: until then no
// request is made. Not shown beside Settings, whose switch is the same choice.

import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import * as client from "../client";
import type { UpdateChecks } from "../wire";
import { UpdateChoice } from "./UpdateChoice";
import { asksUpdates } from "./question";
import "./updates.css";

export function UpdateQuestion() {
  const { t } = useTranslation();
  const [saved, setSaved] = useState<UpdateChecks | null>(null);
  const [closed, setClosed] = useState(false);
  useEffect(() => {
    // A failed read asks nothing now; the app's own failure line says what went wrong.
    client.settings.get().then(
      (view) => setSaved(view.settings.preferences.updates),
      () => undefined,
    );
  }, []);
  if (closed || !asksUpdates(saved)) return null;
  return (
    <div className="update-question">
      <UpdateChoice testId="update-question" intro={t("updates.questionIntro")} onDone={() => setClosed(true)} />
    </div>
  );
}
