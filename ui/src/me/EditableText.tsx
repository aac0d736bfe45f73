// One value of the coaching dashboard, editable in place: shown as text (a list as lines),
// "Edit" turns it into a text box, "Save" hands the new value back (a list: one item a line).

import { useEffect, useId, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { Button } from "../design";

interface Props {
  label: string;
  value: string | string[] | null;
  /** Lists are edited one item a line. */
  list?: boolean;
  testId: string;
  onSave: (value: string | string[]) => Promise<void>;
}

export function EditableText({ label, value, list = false, testId, onSave }: Props) {
  const { t } = useTranslation();
  const id = useId();
  const text = Array.isArray(value) ? value.join("\n") : (value ?? "");
  const [draft, setDraft] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  // Keyboard use: when the editor closes, focus goes back to its Edit button.
  const editButton = useRef<HTMLButtonElement>(null);
  const wasEditing = useRef(false);
  useEffect(() => {
    if (draft === null && wasEditing.current) editButton.current?.focus();
    wasEditing.current = draft !== null;
  }, [draft]);
  const save = async () => {
    if (draft === null) return;
    setBusy(true);
    try {
      await onSave(list ? draft.split("\n").map((l) => l.trim()).filter(Boolean) : draft.trim());
      setDraft(null);
    } catch {
      // The caller shows why; the draft stays so nothing typed is lost.
    } finally {
      setBusy(false);
    }
  };
  return (
    <div className="field" data-testid={testId}>
      <div className="field-head">
        <label htmlFor={id} className="field-label">
          {label}
        </label>
        {draft === null && (
          <Button ref={editButton} type="button" variant="link" aria-label={t("me.editField", { field: label })} onClick={() => setDraft(text)}>
            {t("me.edit")}
          </Button>
        )}
      </div>
      {draft === null ? (
        Array.isArray(value) && value.length > 0 ? (
          <ul className="field-list" id={id}>
            {value.map((v, i) => (
              <li key={i}>{v}</li>
            ))}
          </ul>
        ) : (
          <p className={text ? "field-value" : "field-value muted"} id={id}>
            {text || t("me.notSet")}
          </p>
        )
      ) : (
        <div className="field-edit">
          <textarea
            id={id}
            rows={list ? 3 : 2}
            value={draft}
            autoFocus
            onChange={(e) => setDraft(e.target.value)}
            onKeyDown={(e) => {
              if (e.key === "Escape") setDraft(null);
              if (e.key === "Enter" && (e.ctrlKey || e.metaKey)) void save();
            }}
          />
          {list && <span className="muted small">{t("me.onePerLine")}</span>}
          <div className="actions start">
            <Button type="button" variant="primary" disabled={busy} onClick={() => void save()}>
              {t("me.save")}
            </Button>
            <Button type="button" onClick={() => setDraft(null)}>
              {t("me.cancel")}
            </Button>
          </div>
        </div>
      )}
    </div>
  );
}
