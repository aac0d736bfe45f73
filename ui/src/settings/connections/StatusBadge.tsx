// A server's live status: a dot and a word (testing, connected with its tool count, failed,
// off); a failure shows the core's reason and the server's last stderr lines under it.

import { useTranslation } from "react-i18next";
import type { ServerStatus } from "./status";

export function StatusBadge({ status }: { status: ServerStatus }) {
  const { t } = useTranslation();
  const label =
    status.kind === "connected"
      ? t("connections.status.connected", { count: status.tools })
      : t(`connections.status.${status.kind}`);
  return (
    <span className={`connection-status ${status.kind}`} data-testid="connection-status" role="status">
      <span className="dot" aria-hidden="true" />
      {label}
    </span>
  );
}

export function FailureDetail({ status }: { status: ServerStatus }) {
  const { t } = useTranslation();
  if (status.kind !== "failed") return null;
  return (
    <div className="connection-failure" data-testid="connection-failure">
      <p>{status.reason}</p>
      {status.stderr.length > 0 && (
        <>
          <p className="muted small">{t("connections.stderr")}</p>
          <pre data-testid="connection-stderr">{status.stderr.join("\n")}</pre>
        </>
      )}
    </div>
  );
}
