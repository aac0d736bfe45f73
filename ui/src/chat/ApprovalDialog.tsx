// The approval dialog: a tool waits for the person's yes or no.

import { useRef } from "react";
import { useTranslation } from "react-i18next";
import { Button, Dialog } from "../design";
import type { PendingApproval } from "./state";

export function ApprovalDialog(props: { approval: PendingApproval; onDecide: (approved: boolean) => void }) {
  const { t } = useTranslation();
  const first = useRef<HTMLButtonElement>(null);
  const { tool, args, reason } = props.approval;
  return (
    <Dialog title={t("approval.title")} initialFocus={first} focusKey={props.approval.requestId} data-testid="approval-dialog">
      <p>{reason}</p>
      <div className="label">
        {t("approval.tool")}: <code>{tool}</code>
      </div>
      <pre>{JSON.stringify(args, null, 2)}</pre>
      <div className="actions">
        <Button data-testid="deny" onClick={() => props.onDecide(false)}>
          {t("approval.deny")}
        </Button>
        <Button ref={first} variant="primary" data-testid="approve" onClick={() => props.onDecide(true)}>
          {t("approval.approve")}
        </Button>
      </div>
    </Dialog>
  );
}
