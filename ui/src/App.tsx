// The window: first run (until a model is configured), then navigation between the screens:
// today (the home), chat, journal, insights (loaded lazily), protocols, me, skills and settings.
// The screen shown is kept in the address's fragment (`#journal`), so a reload stays on it, a
// test can open one and the tray's "Today's reminders" can turn an open window to Today. The
// first-close dialog sits over any screen.

import { lazy, Suspense, useEffect, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import * as client from "./client";
import { ChatScreen } from "./chat/ChatScreen";
import { applyTheme } from "./design/theme";
import { FailureLine } from "./errors/FailureLine";
import { ScreenBoundary } from "./errors/ScreenBoundary";
import { setLanguage } from "./i18n";
import { formFromView } from "./settings/form";
import { FirstRun } from "./firstrun/FirstRun";
import { JournalScreen, type WriteRequest } from "./journal/JournalScreen";
import { MeScreen } from "./me/MeScreen";
import { ProtocolsScreen } from "./protocols/ProtocolsScreen";
import { ReminderCard, reminderKey } from "./reminders/ReminderCard";
import { reminderKeyOf } from "./reminders/fragment";
import { SettingsScreen } from "./settings/SettingsScreen";
import { SkillsScreen } from "./skills/SkillsScreen";
import { TodayScreen } from "./today/TodayScreen";
import { CloseDialog } from "./tray/CloseDialog";
import { UpdateCheckOnStart } from "./updates/UpdateCheck";
import { UpdateQuestion } from "./updates/UpdateQuestion";
import { recovered, report, watchSkills } from "./store";
import { isLock, UnlockScreen, type LockKind } from "./unlock/UnlockScreen";
import type { ReminderView } from "./wire";
import { Tabs } from "./design";

/** Loaded when first opened, so the chat's start-up and memory do not pay for the chart library. */
const InsightsScreen = lazy(() => import("./insights/InsightsScreen"));

type Screen = "starting" | "unlock" | "first-run" | Page;
/** The screens the navigation leads to, in its order. */
const PAGES = ["today", "chat", "journal", "insights", "protocols", "me", "skills", "settings"] as const;
type Page = (typeof PAGES)[number];

/** The screen the app opens on once set up: the one named in the fragment, else Today. */
function home(): Page {
  const named = location.hash.slice(1);
  return (PAGES as readonly string[]).includes(named) ? (named as Page) : "today";
}

export function App() {
  const { t } = useTranslation();
  const [screen, setScreenState] = useState<Screen>("starting");
  const setScreen = (next: Screen) => {
    setScreenState(next);
    if ((PAGES as readonly string[]).includes(next)) history.replaceState(null, "", `#${next}`);
  };
  /** A new journal entry another screen asked for (Today's prompt), a new object each time. */
  const [writeRequest, setWriteRequest] = useState<WriteRequest>(null);
  const [lock, setLock] = useState<LockKind>("passphrase_needed");
  /** A conversation another screen asked the chat to open (a new object each time). */
  const [openRequest, setOpenRequest] = useState<{ id: string | null; reminder?: ReminderView } | null>(null);
  const openConversation = (id: string | null) => {
    setOpenRequest({ id });
    setScreen("chat");
  };
  /** A reminder card's button: its run's conversation (a new one when the run has none), at its question. */
  const openReminder = (reminder: ReminderView) => {
    setOpenRequest({ id: reminder.conversation_id ?? null, reminder });
    setScreen("chat");
  };
  /** A notification's "answer now" (the `#reminder=` fragment): Today, then the reminder's
   * question in its conversation if the core still has it open (else Today shows what is). */
  const followReminder = (key: string) => {
    setScreen("today");
    client.reminders.notices().then(
      (notices) => {
        const reminder = notices.find((r) => reminderKey(r) === key);
        if (reminder) openReminder(reminder);
      },
      (e) => report("reminders", e),
    );
  };
  /** Opens the screen the fragment names (a page, or a reminder's question). */
  const followFragment = () => {
    const key = reminderKeyOf(location.hash);
    if (key) followReminder(key);
    else setScreen(home());
  };
  const start = () => {
    // A locked data folder asks for its passphrase first. Any other failed check must not keep
    // the window blank: fall back to the chat, whose error banner leads to Settings.
    client.needsFirstRun().then(
      (needed) => (needed ? setScreen("first-run") : followFragment()),
      (e) => {
        const locked = isLock(client.toCommandError(e));
        if (locked) setLock(locked);
        setScreen(locked ? "unlock" : "chat");
      },
    );
  };
  useEffect(start, []);
  // The tray's "Today's reminders" and a reminder notification's action set the fragment of an
  // open window: follow it — at once on a screen of the app; one set while the app is still
  // starting (or locked) is followed as soon as a screen of the app shows, never out of first
  // run or the unlock screen.
  const inAppNow = useRef(false);
  const pendingFragment = useRef(false);
  inAppNow.current = (PAGES as readonly string[]).includes(screen);
  useEffect(() => {
    const follow = () => {
      if (inAppNow.current) followFragment();
      else pendingFragment.current = true;
    };
    window.addEventListener("hashchange", follow);
    return () => window.removeEventListener("hashchange", follow);
  }, []);
  /** Unlocked: the saved language and theme could not be read while the folder was locked; apply them now. */
  const opened = () => {
    client.settings.get().then(
      (v) => {
        setLanguage(formFromView(v).language);
        applyTheme(v.settings.preferences.theme);
        recovered("app");
      },
      (e) => report("app", e),
    );
    start();
  };
  const inApp = (PAGES as readonly string[]).includes(screen);
  useEffect(() => {
    if (inApp && pendingFragment.current) {
      pendingFragment.current = false;
      followFragment();
    }
  }, [inApp]);
  // The skill registry's notices feed the store from the moment the app is open (not before:
  // a locked folder has no registry yet).
  useEffect(() => {
    if (inApp) watchSkills();
  }, [inApp]);
  return (
    <div className="app">
      <header className="topbar">
        <span className="brand">{t("app.title")}</span>
        {screen !== "unlock" && (
          <Tabs
            kind="nav"
            label="main"
            value={inApp ? (screen as Page) : null}
            onChange={(p) => {
              setWriteRequest(null);
              setScreen(p);
            }}
            items={PAGES.map((p) => ({ value: p, label: t(`nav.${p}`), testId: `nav-${p}` }))}
          />
        )}
      </header>
      {/* Today shows the due reminders itself. */}
      {inApp && screen !== "today" && <ReminderCard onOpen={openReminder} answering={openRequest?.reminder ? reminderKey(openRequest.reminder) : null} />}
      {/* A folder from before the update choice existed: asked once it is open (not beside Settings' switch). */}
      {inApp && screen !== "settings" && <UpdateQuestion />}
      {screen !== "unlock" && <FailureLine area="app" />}
      {screen === "starting" && <p className="starting muted">{t("app.starting")}</p>}
      {screen === "unlock" && (
        <div className="screen">
          <UnlockScreen kind={lock} onOpened={opened} />
        </div>
      )}
      {screen === "first-run" && (
        <div className="screen">
          <FirstRun onReady={() => setScreen(home())} onOpenSettings={() => setScreen("settings")} />
        </div>
      )}
      {/* The chat stays mounted so a running reply keeps streaming while Settings is open. */}
      {inApp && (
        <div hidden={screen !== "chat"} className="screen">
          <ChatScreen onOpenSettings={() => setScreen("settings")} openRequest={openRequest} />
        </div>
      )}
      {screen === "today" && (
        <div className="screen">
          <TodayScreen
            onOpenConversation={openConversation}
            onAnswerReminder={openReminder}
            onContinueProtocol={(run) => openConversation(run.conversation_id)}
            onWrite={(prompt) => {
              setWriteRequest({ prompt });
              setScreen("journal");
            }}
          />
        </div>
      )}
      {screen === "journal" && (
        <div className="screen">
          <JournalScreen writeRequest={writeRequest} />
        </div>
      )}
      {screen === "insights" && (
        <div className="screen">
          <ScreenBoundary>
            <Suspense fallback={<p className="starting muted">{t("insights.loading")}</p>}>
              {/* Its empty state's check-in leads to Today. */}
              <InsightsScreen onCheckIn={() => setScreen("today")} />
            </Suspense>
          </ScreenBoundary>
        </div>
      )}
      {screen === "protocols" && (
        <div className="screen">
          <ProtocolsScreen />
        </div>
      )}
      {screen === "me" && (
        <div className="screen">
          <MeScreen onOpenConversation={openConversation} />
        </div>
      )}
      {screen === "skills" && (
        <div className="screen">
          <SkillsScreen />
        </div>
      )}
      {screen === "settings" && (
        <div className="screen">
          <SettingsScreen />
        </div>
      )}
      <CloseDialog />
      {inApp && <UpdateCheckOnStart />}
    </div>
  );
}
