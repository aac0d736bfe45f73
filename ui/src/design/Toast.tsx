// Toast: a short message about what just happened — `ok` and `info` are announced politely
// (role status), `danger` at once (role alert). Shown in place next to what it is about, or
// `floating` over the window's corner; it stays until its owner removes it.

import type { HTMLAttributes, ReactNode } from "react";

export type ToastTone = "ok" | "danger" | "info";

export function Toast({
  tone,
  as: Tag = "span",
  floating,
  className,
  children,
  ...rest
}: HTMLAttributes<HTMLElement> & {
  tone: ToastTone;
  as?: "span" | "p" | "div";
  floating?: boolean;
  children: ReactNode;
  "data-testid"?: string;
}) {
  const classes = ["toast", `toast-${tone}`, floating && "toast-floating", className].filter(Boolean).join(" ");
  return (
    <Tag role={tone === "danger" ? "alert" : "status"} {...rest} className={classes}>
      {children}
    </Tag>
  );
}
