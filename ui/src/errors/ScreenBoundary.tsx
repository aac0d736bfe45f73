// A screen that fails to load or to draw (a lazily loaded part refused by the web view, an
// exception while rendering) shows what went wrong and a way out — a reload of the window —
// instead of leaving the whole window blank, and the rest of the app (the navigation) stays
// usable. It owns only that fallback; the error itself still reaches the console as React
// reports it.

import { Component, type ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { Button, Toast } from "../design";

function ScreenFailure({ error }: { error: Error }) {
  const { t } = useTranslation();
  return (
    <Toast as="div" tone="danger" data-testid="screen-failure">
      <p>{t("errors.screen", { message: error.message })}</p>
      <Button variant="secondary" onClick={() => window.location.reload()}>
        {t("errors.reload")}
      </Button>
    </Toast>
  );
}

export class ScreenBoundary extends Component<{ children: ReactNode }, { error: Error | null }> {
  state = { error: null as Error | null };

  static getDerivedStateFromError(error: unknown) {
    return { error: error instanceof Error ? error : new Error(String(error)) };
  }

  render() {
    return this.state.error ? <ScreenFailure error={this.state.error} /> : this.props.children;
  }
}
