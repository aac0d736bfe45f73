// Button: the one button of the design system (variants primary, secondary, danger, ghost,
// link; size sm). A thin wrapper over <button>: every other attribute passes through, and the
// type is the caller's (a button in a form stays a submit button unless told otherwise).

import type { ComponentPropsWithRef } from "react";

export type ButtonVariant = "primary" | "secondary" | "danger" | "ghost" | "link";

export function Button({
  variant = "secondary",
  size,
  className,
  ...rest
}: ComponentPropsWithRef<"button"> & { variant?: ButtonVariant; size?: "sm" }) {
  const classes = ["btn", `btn-${variant}`, size && `btn-${size}`, className].filter(Boolean).join(" ");
  return <button {...rest} className={classes} />;
}
