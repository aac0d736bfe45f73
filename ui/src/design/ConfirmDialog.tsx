// ConfirmDialog: asks before something that cannot be taken back (remove a connection, a
// device, a journal entry): a title, what will happen, Cancel and the confirming button
// (danger). Escape and Cancel call `onCancel`. The dialog's behaviour is Dialog's.

import type { ReactNode } from "react";
import { Button } from "./Button";
import { Dialog } from "./Dialog";

export function ConfirmDialog({
  title,
  children,
  cancelLabel,
  confirmLabel,
  onCancel,
  onConfirm,
  "data-testid": testId,
  confirmTestId,
  cancelTestId,
}: {
  title: ReactNode;
  /** What will happen. */
  children: ReactNode;
  cancelLabel: string;
  confirmLabel: string;
  onCancel: () => void;
  onConfirm: () => void;
  "data-testid"?: string;
  confirmTestId?: string;
  cancelTestId?: string;
}) {
  return (
    <Dialog title={title} onClose={onCancel} data-testid={testId}>
      {children}
      <div className="actions">
        <Button type="button" onClick={onCancel} data-testid={cancelTestId}>
          {cancelLabel}
        </Button>
        <Button type="button" variant="danger" onClick={onConfirm} data-testid={confirmTestId}>
          {confirmLabel}
        </Button>
      </div>
    </Dialog>
  );
}
