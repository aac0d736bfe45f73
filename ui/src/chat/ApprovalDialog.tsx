// The approval dialog: a tool waits for the person's yes or no.

import { useEffect, useRef } from "react";
import { useTranslation } from "react-i18next";
import type { PendingApproval } from "./state";

export function ApprovalDialog(props: { approval: PendingApproval; onDecide: (approved: boolean) => void }) {
  const { t } = useTranslation();
  const first = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    first.current?.focus();
  }, [props.approval.requestId]);
  const { tool, args, reason } = props.approval;
  return (
    <div className="modal-backdrop">
      <div role="dialog" aria-modal="true" aria-labelledby="approval-title" className="modal" data-testid="approval-dialog">
        <h2 id="approval-title">{t("approval.title")}</h2>
        <p>{reason}</p>
        <div className="label">
          {t("approval.tool")}: <code>{tool}</code>
        </div>
        <pre>{JSON.stringify(args, null, 2)}</pre>
        <div className="actions">
          <button data-testid="deny" onClick={() => props.onDecide(false)}>
            {t("approval.deny")}
          </button>
          <button ref={first} className="primary" data-testid="approve" onClick={() => props.onDecide(true)}>
            {t("approval.approve")}
          </button>
        </div>
      </div>
    </div>
  );
}
