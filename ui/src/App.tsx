// The window: navigation between the chat and settings screens.

import { useState } from "react";
import { useTranslation } from "react-i18next";
import { ChatScreen } from "./chat/ChatScreen";
import { SettingsScreen } from "./settings/SettingsScreen";

type Screen = "chat" | "settings";

export function App() {
  const { t } = useTranslation();
  const [screen, setScreen] = useState<Screen>("chat");
  return (
    <div className="app">
      <header className="topbar">
        <span className="brand">{t("app.title")}</span>
        <nav aria-label="main">
          <button data-testid="nav-chat" aria-current={screen === "chat"} onClick={() => setScreen("chat")}>
            {t("nav.chat")}
          </button>
          <button data-testid="nav-settings" aria-current={screen === "settings"} onClick={() => setScreen("settings")}>
            {t("nav.settings")}
          </button>
        </nav>
      </header>
      {/* The chat stays mounted so a running reply keeps streaming while Settings is open. */}
      <div hidden={screen !== "chat"} className="screen">
        <ChatScreen onOpenSettings={() => setScreen("settings")} />
      </div>
      {screen === "settings" && (
        <div className="screen">
          <SettingsScreen />
        </div>
      )}
    </div>
  );
}
