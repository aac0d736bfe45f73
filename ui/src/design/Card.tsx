// Card: a surface holding one thing (a run, a skill, a section of Me), with an optional accent
// edge (`tone`). Renders the element asked for (`as`), so a list of cards stays a list.

import type { HTMLAttributes, ReactNode } from "react";

export type CardTone = "plain" | "accent" | "ok" | "danger";

export function Card({
  as: Tag = "div",
  tone = "plain",
  className,
  children,
  ...rest
}: HTMLAttributes<HTMLElement> & {
  as?: "div" | "section" | "li" | "article" | "aside";
  tone?: CardTone;
  children?: ReactNode;
  "data-testid"?: string;
}) {
  const classes = ["card", tone !== "plain" && `card-${tone}`, className].filter(Boolean).join(" ");
  return (
    <Tag {...rest} className={classes}>
      {children}
    </Tag>
  );
}
