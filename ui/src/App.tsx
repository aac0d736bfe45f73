// The window: first run (until a model is configured), then navigation between the chat and
// settings screens.

import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import * as client from "./client";
import { ChatScreen } from "./chat/ChatScreen";
import { FirstRun } from "./firstrun/FirstRun";
import { SettingsScreen } from "./settings/SettingsScreen";
import { isLock, UnlockScreen, type LockKind } from "./unlock/UnlockScreen";

type Screen = "starting" | "unlock" | "first-run" | "chat" | "settings";

export function App() {
  const { t } = useTranslation();
  const [screen, setScreen] = useState<Screen>("starting");
  const [lock, setLock] = useState<LockKind>("passphrase_needed");
  const start = () => {
    // A locked data folder asks for its passphrase first. Any other failed check must not keep
    // the window blank: fall back to the chat, whose error banner leads to Settings.
    client.needsFirstRun().then(
      (needed) => setScreen(needed ? "first-run" : "chat"),
      (e) => {
        const locked = isLock(client.toCommandError(e));
        if (locked) setLock(locked);
        setScreen(locked ? "unlock" : "chat");
      },
    );
  };
  useEffect(start, []);
  const inApp = screen === "chat" || screen === "settings";
  return (
    <div className="app">
      <header className="topbar">
        <span className="brand">{t("app.title")}</span>
        {screen !== "unlock" && (
          <nav aria-label="main">
            <button data-testid="nav-chat" aria-current={screen === "chat"} onClick={() => setScreen("chat")}>
              {t("nav.chat")}
            </button>
            <button data-testid="nav-settings" aria-current={screen === "settings"} onClick={() => setScreen("settings")}>
              {t("nav.settings")}
            </button>
          </nav>
        )}
      </header>
      {screen === "starting" && <p className="starting muted">{t("app.starting")}</p>}
      {screen === "unlock" && (
        <div className="screen">
          <UnlockScreen kind={lock} onOpened={start} />
        </div>
      )}
      {screen === "first-run" && (
        <div className="screen">
          <FirstRun onReady={() => setScreen("chat")} onOpenSettings={() => setScreen("settings")} />
        </div>
      )}
      {/* The chat stays mounted so a running reply keeps streaming while Settings is open. */}
      {inApp && (
        <div hidden={screen !== "chat"} className="screen">
          <ChatScreen onOpenSettings={() => setScreen("settings")} />
        </div>
      )}
      {screen === "settings" && (
        <div className="screen">
          <SettingsScreen />
        </div>
      )}
    </div>
  );
}
