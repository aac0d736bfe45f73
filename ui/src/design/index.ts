// The design system's components, used by every screen (tokens in tokens.css, their look in
// components.css, the theme in theme.ts).

export { Button, type ButtonVariant } from "./Button";
export { Card, type CardTone } from "./Card";
export { ConfirmDialog } from "./ConfirmDialog";
export { Dialog } from "./Dialog";
export { EmptyState } from "./EmptyState";
export { Field } from "./Field";
export { Tabs, type TabItem } from "./Tabs";
export { Toast, type ToastTone } from "./Toast";
