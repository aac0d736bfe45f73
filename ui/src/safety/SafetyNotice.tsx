// The crisis resources a safety notice carries (docs/safety.md): in the chat above the thread
// from the message that raised them, and again whenever the conversation is opened (after the
// person wrote on, it starts folded); on Today and in the journal above a check-in or entry
// that raised them. It can fold to one line but never disappears while its screen shows it,
// so the numbers stay in reach. Numbers are plain, selectable text: nothing here navigates the
// window away.

import { useState } from "react";
import { useTranslation } from "react-i18next";
import type { SafetyView } from "./view";
import { Button } from "../design";

export function SafetyNotice({ safety }: { safety: SafetyView }) {
  const { t } = useTranslation();
  const [folded, setFolded] = useState(safety.folded);
  const urgent = safety.risk === "acute";
  return (
    <section
      className={`safety-notice ${urgent ? "urgent" : ""}`}
      data-testid="safety-notice"
      // Shown again (folded from the start) it is a status, not an alert read out at every visit.
      role={urgent && !safety.folded ? "alert" : "status"}
      aria-label={t("safety.label")}
    >
      <div className="safety-head">
        <strong>{t(urgent ? "safety.acute" : "safety.concern")}</strong>
        <Button type="button" variant="link" aria-expanded={!folded} onClick={() => setFolded(!folded)}>
          {folded ? t("safety.show") : t("safety.fold")}
        </Button>
      </div>
      {!folded && (
        <>
          {safety.category && <p>{t(`safety.category.${safety.category}`)}</p>}
          {safety.resources.length > 0 && (
            <ul className="safety-resources">
              {safety.resources.map((r, i) => (
                <li key={i} data-testid="safety-resource">
                  <span className="name">{r.name}</span>
                  {r.number && <span className="number">{r.number}</span>}
                  {r.note && <span className="note">{r.note}</span>}
                </li>
              ))}
            </ul>
          )}
          <p className="muted">{t("safety.notTherapy")}</p>
        </>
      )}
    </section>
  );
}
