// Field: a labelled control — the label over it, an optional hint and error below. The label
// element wraps the control, so the control is named by it without ids.

import type { ReactNode } from "react";

export function Field({
  label,
  hint,
  error,
  className,
  children,
}: {
  label: ReactNode;
  hint?: ReactNode;
  error?: ReactNode;
  className?: string;
  children: ReactNode;
}) {
  return (
    <label className={["ds-field", className].filter(Boolean).join(" ")}>
      <span className="ds-field-label">{label}</span>
      {children}
      {hint && <span className="ds-field-hint">{hint}</span>}
      {error && <span className="ds-field-error">{error}</span>}
    </label>
  );
}
