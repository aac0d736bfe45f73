// Entry point: makes the system's locale safe for Intl, installs the mocked backend in e2e
// builds only, picks the language (settings, else the system's) and the colour theme, and
// renders the app.

import { StrictMode } from "react";
import { createRoot } from "react-dom/client";
import { App } from "./App";
import * as client from "./client";
import { applyTheme, cachedTheme } from "./design/theme";
import { initI18n } from "./i18n";
import { guardSystemLocale } from "./i18n/systemLocale";
import { formFromView } from "./settings/form";
import "./design/tokens.css";
import "./design/components.css";
import "./styles.css";

async function start() {
  guardSystemLocale();
  if (import.meta.env.MODE === "e2e") {
    const { installMockBackend } = await import("./e2e-mock/backend");
    installMockBackend();
  }
  // Deliberately quiet: a folder still locked cannot answer its settings yet (the App applies the
  // saved language once it is unlocked, and shows that failure); until then the system's language.
  const view = await client.settings.get().catch(() => null);
  initI18n(view ? formFromView(view).language : "");
  // The saved theme (theme-init.js showed the cached one until now).
  applyTheme(view ? view.settings.preferences.theme : cachedTheme());
  const root = document.getElementById("root");
  if (root) createRoot(root).render(<StrictMode><App /></StrictMode>);
}

void start();
