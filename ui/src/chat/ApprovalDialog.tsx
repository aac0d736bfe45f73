// The approval dialog: a tool waits for the person's yes or no. A connected server's tool
// names its connection and what the server says of it, and may be allowed always.

import { useRef } from "react";
import { useTranslation } from "react-i18next";
import { Button, Dialog } from "../design";
import type { ApprovalConnection } from "../wire";
import type { PendingApproval } from "./state";

/** The server's hints in words ("only reads", "may delete or overwrite"). */
function ConnectionHints(props: { connection: ApprovalConnection }) {
  const { t } = useTranslation();
  const c = props.connection;
  const hints = [
    c.read_only ? t("approval.readOnly") : null,
    c.destructive ? t("approval.destructive") : null,
    c.open_world ? t("approval.openWorld") : null,
  ].filter((h): h is string => h !== null);
  return (
    <>
      <p data-testid="approval-connection">{t("approval.external", { server: c.server })}</p>
      <p data-testid="approval-hints">
        {hints.length > 0 ? t("approval.hints", { hints: hints.join(t("chat.toolLine.and")) }) : t("approval.noHints")}
      </p>
    </>
  );
}

export function ApprovalDialog(props: {
  approval: PendingApproval;
  onDecide: (approved: boolean, always?: boolean) => void;
}) {
  const { t } = useTranslation();
  const first = useRef<HTMLButtonElement>(null);
  const { tool, args, reason, connection } = props.approval;
  return (
    <Dialog title={t("approval.title")} initialFocus={first} focusKey={props.approval.requestId} data-testid="approval-dialog">
      <p>{reason}</p>
      {connection && <ConnectionHints connection={connection} />}
      <div className="label">
        {connection && (
          <>
            {t("approval.connection")}: <code>{connection.server}</code>{" "}
          </>
        )}
        {t("approval.tool")}: <code>{connection ? connection.tool : tool}</code>
      </div>
      <pre>{JSON.stringify(args, null, 2)}</pre>
      <div className="actions">
        <Button data-testid="deny" onClick={() => props.onDecide(false)}>
          {t("approval.deny")}
        </Button>
        {connection && (
          <Button data-testid="always-allow" onClick={() => props.onDecide(true, true)}>
            {t("approval.alwaysAllow")}
          </Button>
        )}
        <Button ref={first} variant="primary" data-testid="approve" onClick={() => props.onDecide(true)}>
          {t("approval.approve")}
        </Button>
      </div>
    </Dialog>
  );
}
