// A new conversation's starters: what the skills offer to say first (`conversation_starters`,
// in the UI's language), each a button that sends it as the first message, then the
// connections' prompts (`McpPrompts`: choosing one fills the composer). Shown while the
// thread is empty; a failed read shows its failure line (the composer still works).

import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import * as client from "../client";
import { Button } from "../design";
import { FailureLine } from "../errors/FailureLine";
import { recovered, report } from "../store";
import type { StarterView } from "../wire";
import { McpPrompts } from "./McpPrompts";

export function Starters({
  onSend,
  onFill,
  disabled,
}: {
  onSend: (text: string) => void;
  onFill: (text: string) => void;
  disabled: boolean;
}) {
  const { t, i18n } = useTranslation();
  const [starters, setStarters] = useState<StarterView[]>([]);
  useEffect(() => {
    let live = true;
    client.conversationStarters(i18n.language).then(
      (s) => {
        if (!live) return;
        setStarters(s);
        recovered("starters");
      },
      (e) => report("starters", e),
    );
    return () => {
      live = false;
    };
  }, [i18n.language]);
  if (starters.length === 0)
    return (
      <>
        <FailureLine area="starters" />
        <div className="starters">
          <McpPrompts onFill={onFill} disabled={disabled} />
        </div>
      </>
    );
  return (
    <section className="starters" aria-labelledby="starters-title" data-testid="starters">
      <FailureLine area="starters" />
      <h2 id="starters-title" className="starters-title">
        {t("chat.starters")}
      </h2>
      <ul className="starter-list">
        {starters.map((s, i) => (
          <li key={`${s.skill}/${i}`}>
            <Button className="starter" onClick={() => onSend(s.text)} disabled={disabled} data-testid="starter">
              <span className="starter-text">{s.text}</span>
              <span className="starter-skill muted small">{s.skill_name}</span>
            </Button>
          </li>
        ))}
      </ul>
      <McpPrompts onFill={onFill} disabled={disabled} />
    </section>
  );
}
