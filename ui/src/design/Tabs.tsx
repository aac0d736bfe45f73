// Tabs: a row of choices with the current one marked. `kind="nav"` moves between screens
// (buttons, the current one aria-current); `kind="choice"` picks one value (a radio group, arrow
// keys move the choice), as the theme switch does.

import type { KeyboardEvent, ReactNode } from "react";

export interface TabItem<T extends string> {
  value: T;
  label: ReactNode;
  testId?: string;
}

export function Tabs<T extends string>({
  kind,
  label,
  items,
  value,
  onChange,
  "data-testid": testId,
}: {
  kind: "nav" | "choice";
  label: string;
  items: readonly TabItem<T>[];
  value: T | null;
  onChange: (value: T) => void;
  "data-testid"?: string;
}) {
  const move = (e: KeyboardEvent, index: number) => {
    if (kind !== "choice") return;
    const step = e.key === "ArrowRight" || e.key === "ArrowDown" ? 1 : e.key === "ArrowLeft" || e.key === "ArrowUp" ? -1 : 0;
    if (!step) return;
    e.preventDefault();
    const next = items[(index + step + items.length) % items.length];
    if (!next) return;
    onChange(next.value);
    const row = (e.currentTarget as HTMLElement).parentElement;
    (row?.children[items.indexOf(next)] as HTMLElement | undefined)?.focus();
  };
  const buttons = items.map((item, i) => {
    const current = item.value === value;
    return (
      <button
        key={item.value}
        type="button"
        data-testid={item.testId}
        {...(kind === "nav"
          ? { "aria-current": current }
          : { role: "radio", "aria-checked": current, tabIndex: current || (value === null && i === 0) ? 0 : -1 })}
        onClick={() => onChange(item.value)}
        onKeyDown={(e) => move(e, i)}
      >
        {item.label}
      </button>
    );
  });
  return kind === "nav" ? (
    <nav aria-label={label} className="tabs" data-testid={testId}>
      {buttons}
    </nav>
  ) : (
    <div role="radiogroup" aria-label={label} className="tabs" data-testid={testId}>
      {buttons}
    </div>
  );
}
