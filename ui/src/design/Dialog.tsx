// Dialog: a modal over a dimmed window, named by its title; Escape calls `onClose` when given,
// wherever focus is (a click on the backdrop, or a key pressed before focus moved in, must not
// leave the modal deaf to it). Focus moves into it (the caller's `initialFocus`, else the
// dialog) and Tab stays inside.

import { useEffect, useId, useRef, type KeyboardEvent, type ReactNode, type RefObject } from "react";

const FOCUSABLE = 'button:not([disabled]), [href], input:not([disabled]), select, textarea, [tabindex]:not([tabindex="-1"])';

export function Dialog({
  title,
  children,
  onClose,
  initialFocus,
  focusKey,
  "data-testid": testId,
}: {
  title: ReactNode;
  children: ReactNode;
  onClose?: () => void;
  initialFocus?: RefObject<HTMLElement | null>;
  /** Focus moves in again when this changes (a new question in the same dialog). */
  focusKey?: unknown;
  "data-testid"?: string;
}) {
  const titleId = useId();
  const box = useRef<HTMLDivElement>(null);
  useEffect(() => {
    (initialFocus?.current ?? box.current)?.focus();
  }, [focusKey, initialFocus]);
  // Escape with focus outside every dialog (inside one, that dialog's own handler below has it).
  useEffect(() => {
    if (!onClose) return;
    const escape = (e: globalThis.KeyboardEvent) => {
      if (e.key !== "Escape" || (e.target instanceof Element && e.target.closest('[role="dialog"]'))) return;
      onClose();
    };
    document.addEventListener("keydown", escape);
    return () => document.removeEventListener("keydown", escape);
  }, [onClose]);
  const onKeyDown = (e: KeyboardEvent) => {
    if (e.key === "Escape" && onClose) {
      e.stopPropagation();
      onClose();
    }
    if (e.key !== "Tab" || !box.current) return;
    const items = [...box.current.querySelectorAll<HTMLElement>(FOCUSABLE)];
    const first = items[0];
    const last = items[items.length - 1];
    if (!first || !last) return;
    if (e.shiftKey && document.activeElement === first) {
      e.preventDefault();
      last.focus();
    } else if (!e.shiftKey && document.activeElement === last) {
      e.preventDefault();
      first.focus();
    }
  };
  return (
    <div className="modal-backdrop">
      <div
        ref={box}
        role="dialog"
        aria-modal="true"
        aria-labelledby={titleId}
        className="modal"
        tabIndex={-1}
        onKeyDown={onKeyDown}
        data-testid={testId}
      >
        <h2 id={titleId}>{title}</h2>
        {children}
      </div>
    </div>
  );
}
