// The message input: Enter sends, Shift+Enter is a new line (IME composition is left alone).

import { memo, useEffect, useState, type KeyboardEvent } from "react";
import { useTranslation } from "react-i18next";
import * as client from "../client";
import { Button } from "../design";
import { onAttached, takeAttached } from "./attachments";

/** The shell is told once per window, after the composer's first frame has been painted. */
let readyReported = false;

export const Composer = memo(function Composer(props: {
  /** Text put into the input from outside (a connection's prompt); a new object each time. */
  fill?: { text: string } | null;
  running: boolean;
  canRetry: boolean;
  onSend: (text: string) => void;
  onStop: () => void;
  onRetry: () => void;
}) {
  const { t } = useTranslation();
  const [text, setText] = useState("");
  useEffect(() => {
    if (props.fill) setText(props.fill.text);
  }, [props.fill]);
  // A resource added in Settings → Connections starts the next message.
  useEffect(() => {
    const take = () => {
      const attached = takeAttached();
      if (attached) setText((t) => (t.trim() ? `${t}\n\n${attached}` : attached));
    };
    take();
    return onAttached(take);
  }, []);
  useEffect(() => {
    if (readyReported) return;
    readyReported = true;
    // Deliberately quiet: `ui_ready` only logs the launch time in the shell; the person can do
    // nothing about a failure, and the composer works either way.
    requestAnimationFrame(() => setTimeout(() => void client.uiReady().catch(() => undefined), 0));
  }, []);
  const submit = () => {
    const msg = text.trim();
    if (!msg || props.running) return;
    props.onSend(msg);
    setText("");
  };
  const onKeyDown = (e: KeyboardEvent<HTMLTextAreaElement>) => {
    if (e.key === "Enter" && !e.shiftKey && !e.nativeEvent.isComposing) {
      e.preventDefault();
      submit();
    }
  };
  return (
    <div className="composer">
      <textarea
        data-testid="composer"
        aria-label={t("chat.placeholder")}
        placeholder={t("chat.placeholder")}
        value={text}
        rows={3}
        onChange={(e) => setText(e.target.value)}
        onKeyDown={onKeyDown}
        autoFocus
      />
      <div className="actions">
        {props.canRetry && !props.running && (
          <Button data-testid="retry" onClick={props.onRetry}>
            {t("chat.retry")}
          </Button>
        )}
        {props.running ? (
          <Button data-testid="stop" variant="danger" onClick={props.onStop}>
            {t("chat.stop")}
          </Button>
        ) : (
          <Button data-testid="send" variant="primary" onClick={submit} disabled={!text.trim()}>
            {t("chat.send")}
          </Button>
        )}
      </div>
    </div>
  );
});
