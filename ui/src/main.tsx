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
  const language = await client.settings.get().then((v) => formFromView(v).language, () => "");
  initI18n(language);
  const root = document.getElementById("root");
  if (root) createRoot(root).render(<StrictMode><App /></StrictMode>);
}

void start();
