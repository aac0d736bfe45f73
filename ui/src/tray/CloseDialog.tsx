// The first-close dialog: the window's close button was pressed before the person chose what
// closing does (`preferences.on_close` is "ask"), so the shell kept the window and sent the DOM
// event `vibelife:close-requested` (src-tauri/src/window.rs). The answer is saved, then the
// shell closes as it now says: the window goes and VibeLife stays in the tray, or the app
// quits. Escape keeps the window open and asks again at the next close.

import { useEffect, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import * as client from "../client";
import { FailureText } from "../errors/Failure";
import type { CommandError, OnClose } from "../wire";
import { Button, Dialog, Toast } from "../design";

/** The DOM event the shell dispatches on `window` when the close button needs an answer. */
export const CLOSE_REQUESTED = "vibelife:close-requested";

export function CloseDialog() {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<CommandError | null>(null);
  const first = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    const ask = () => {
      setError(null);
      setOpen(true);
    };
    window.addEventListener(CLOSE_REQUESTED, ask);
    return () => window.removeEventListener(CLOSE_REQUESTED, ask);
  }, []);
  if (!open) return null;
  const choose = async (onClose: OnClose) => {
    setBusy(true);
    setError(null);
    try {
      await client.settings.update([{ key: "preferences.on_close", value: onClose }]);
      await client.desktop.closeWindow();
      setOpen(false);
    } catch (e) {
      setError(client.toCommandError(e));
    } finally {
      setBusy(false);
    }
  };
  return (
    <Dialog title={t("desktop.closeTitle")} initialFocus={first} onClose={() => setOpen(false)} data-testid="close-dialog">
      <p>{t("desktop.closeText")}</p>
      {error && (
        <Toast tone="danger" className="small">
          <FailureText failure={error} />
        </Toast>
      )}
      <div className="actions">
        <Button data-testid="close-quit" disabled={busy} onClick={() => void choose("quit")}>
          {t("desktop.closeQuit")}
        </Button>
        <Button ref={first} variant="primary" data-testid="close-tray" disabled={busy} onClick={() => void choose("tray")}>
          {t("desktop.closeTray")}
        </Button>
      </div>
    </Dialog>
  );
}
