// EmptyState: what an empty list says — an invitation to the first step (a title, a line, and
// an optional action), never just "nothing here".

import type { ReactNode } from "react";

export function EmptyState({
  title,
  children,
  action,
  className,
  "data-testid": testId,
}: {
  title?: ReactNode;
  children?: ReactNode;
  action?: ReactNode;
  className?: string;
  "data-testid"?: string;
}) {
  return (
    <div className={["empty-state", className].filter(Boolean).join(" ")} data-testid={testId}>
      {title && <p className="empty-state-title">{title}</p>}
      {children && <p>{children}</p>}
      {action}
    </div>
  );
}
