// Settings → Appearance: Light / Dark / System (`preferences.theme`), applied at once and saved
// at once through the core (like the reminder section); a failed save shows the core's words
// and puts the saved choice back.

import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import * as client from "../client";
import { Tabs, Toast } from "../design";
import { applyTheme, THEMES } from "../design/theme";
import { FailureText } from "../errors/Failure";
import type { CommandError, Theme } from "../wire";

export function ThemeSwitch() {
  const { t } = useTranslation();
  const [theme, setTheme] = useState<Theme | null>(null);
  const [error, setError] = useState<CommandError | null>(null);
  useEffect(() => {
    // Its failure is the Settings screen's own (it reads the same settings and shows why).
    client.settings.get().then((v) => setTheme(v.settings.preferences.theme), () => setTheme(null));
  }, []);
  const choose = async (next: Theme) => {
    const before = theme;
    setTheme(next);
    setError(null);
    applyTheme(next);
    try {
      const view = await client.settings.update([{ key: "preferences.theme", value: next }]);
      setTheme(view.settings.preferences.theme);
    } catch (e) {
      setError(client.toCommandError(e));
      if (before) {
        setTheme(before);
        applyTheme(before);
      }
    }
  };
  return (
    <div className="theme-setting">
      <span className="ds-field-label">
        {t("settings.theme")}
      </span>
      <Tabs
        kind="choice"
        label={t("settings.theme")}
        data-testid="theme-switch"
        value={theme}
        onChange={(v) => void choose(v)}
        items={THEMES.map((v) => ({ value: v, label: t(`settings.themes.${v}`), testId: `theme-${v}` }))}
      />
      {error && (
        <Toast tone="danger">
          <FailureText failure={error} />
        </Toast>
      )}
    </div>
  );
}
