// A server's permissions in plain words (permissions.ts), in the UI's language; warned lines
// (no sandbox, the network) stand out.

import { useTranslation } from "react-i18next";
import type { McpSandbox } from "../../wire";
import { permissionLines } from "./permissions";

export function Permissions({ sandbox, url, testId }: { sandbox: McpSandbox; url: string | null; testId?: string }) {
  const { t } = useTranslation();
  return (
    <ul className="connection-permissions" data-testid={testId}>
      {permissionLines(sandbox, url).map((line) => (
        <li key={line.key} className={line.warn ? "warn" : undefined}>
          {t(`connections.perm.${line.key}`, line.values)}
        </li>
      ))}
    </ul>
  );
}
