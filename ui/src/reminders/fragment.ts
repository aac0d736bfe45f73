// The fragment the shell opens the window with when a reminder's notification was answered
// (src-tauri/src/window.rs, `Screen::Reminder`): `#reminder=RUN/STEP/AT`, the reminder's key
// as `reminderKey` builds it. Owns reading it; which reminder it names is the core's
// (`reminder_notices`), and opening it is the App's.

const PREFIX = "reminder=";

/** The reminder key a fragment (`location.hash`) names, or null when it names none. */
export function reminderKeyOf(hash: string): string | null {
  const fragment = hash.startsWith("#") ? hash.slice(1) : hash;
  if (!fragment.startsWith(PREFIX)) return null;
  let key: string;
  try {
    key = decodeURIComponent(fragment.slice(PREFIX.length));
  } catch {
    return null;
  }
  return key.split("/").length === 3 ? key : null;
}
