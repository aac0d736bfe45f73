// The crisis notice as the screens show it (docs/safety.md): from a chat turn's
// `safety_notice` event, a reopened conversation's stored mark, or a journal entry or
// check-in the core screened. Nothing here decides what counts as a risk.

import type { SafetyCategory, SafetyNoticeView, SafetyResource, SafetyRisk } from "../wire";

/** A crisis notice to show: the risk, what kind, and the contacts of the person's locale. */
export interface SafetyView {
  risk: SafetyRisk;
  /** Null only for a mark stored before categories were kept. */
  category: SafetyCategory | null;
  resources: SafetyResource[];
  locale: string;
  /** Shown again from a reopened conversation after the person wrote on: it starts folded to
   * one line (the numbers one click away). A notice raised now, or by the person's latest
   * message, starts open. */
  folded: boolean;
}

/** The notice the core sent with a saved journal entry or check-in (none: null): shown open. */
export function fromNotice(notice: SafetyNoticeView | null | undefined): SafetyView | null {
  return notice ? { ...notice, folded: false } : null;
}
