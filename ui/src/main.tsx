// Entry point: installs the mocked backend in e2e builds only, picks the language (settings,
// else the system's), and renders the app.

import { StrictMode } from "react";
import { createRoot } from "react-dom/client";
import { App } from "./App";
import * as client from "./client";
import { initI18n } from "./i18n";
import { formFromView } from "./settings/form";
import "./styles.css";

async function start() {
  if (import.meta.env.MODE === "e2e") {
    const { installMockBackend } = await import("./e2e-mock/backend");
    installMockBackend();
  }
  // Deliberately quiet: a folder still locked cannot answer its settings yet (the App applies the
  // saved language once it is unlocked, and shows that failure); until then the system's language.
  const language = await client.settings.get().then((v) => formFromView(v).language, () => "");
  initI18n(language);
  const root = document.getElementById("root");
  if (root) createRoot(root).render(<StrictMode><App /></StrictMode>);
}

void start();
