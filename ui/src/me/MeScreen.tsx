// The "Me" screen: birth info with its charts, the coaching dashboard (the lifecoach state,
// edited in place), what the coach remembers, and preferences (voice, language, reminder times).

import { useTranslation } from "react-i18next";
import { BirthSection } from "./BirthSection";
import { Dashboard } from "./Dashboard";
import { MemorySection } from "./MemorySection";
import { PreferencesSection } from "./PreferencesSection";

export function MeScreen({ onOpenConversation }: { onOpenConversation: (id: string) => void }) {
  const { t } = useTranslation();
  return (
    <div className="page me-page">
      <h1>{t("me.title")}</h1>
      <BirthSection />
      <h2>{t("me.dash.title")}</h2>
      <Dashboard />
      <MemorySection onOpenConversation={onOpenConversation} />
      <PreferencesSection />
    </div>
  );
}
