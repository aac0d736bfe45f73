//! The main window's life: made at start (unless launched minimised by autostart), closed as
//! `preferences.on_close` says, and made again from the tray or a second launch. Owns the close
//! decision (a pure function of the setting, whether the app is open and whether a tray is
//! there) and keeping the process alive in the tray; the window is destroyed there, not hidden,
//! so the web view's memory is released (docs/ui.md, "Tray"). No product logic: reminders,
//! backups and memory passes run in the core on clocks that never needed a window.

use std::sync::atomic::{AtomicBool, Ordering};

use tauri::{AppHandle, Manager as _, WebviewWindowBuilder};
use vibe_wire::settings::OnClose;

use crate::shell::Shell;
use crate::tray::{self, TrayShown};

/// The window's label in tauri.conf.json.
pub const MAIN: &str = "main";

/// The argument autostart launches the app with: no window, only the tray.
pub const MINIMIZED: &str = "--minimized";

/// Whether `args` (the process's, without the program) ask for a start in the tray.
pub fn starts_minimized<S: AsRef<str>>(args: &[S]) -> bool {
    args.iter().any(|a| a.as_ref() == MINIMIZED)
}

/// The single-instance plugin's D-Bus id: one running app per data folder (a second launch
/// over the same folder opens the first one's window and ends; one over another folder, as the
/// tests run side by side, starts on its own).
pub fn instance_id(identifier: &str, data_dir: &std::path::Path) -> String {
    use std::hash::{Hash as _, Hasher as _};
    let mut hasher = std::collections::hash_map::DefaultHasher::new();
    data_dir.hash(&mut hasher);
    format!("{identifier}.d{:016x}", hasher.finish())
}

/// A second launch (single-instance): its window opens unless autostart launched it.
pub fn second_launch(handle: &AppHandle, argv: &[String]) {
    let args = argv.get(1..).unwrap_or_default();
    tracing::info!(minimized = starts_minimized(args), "a second launch");
    if !starts_minimized(args) {
        open(handle, &Screen::Home);
    }
}

/// What closing the window does.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Close {
    /// Keep the window and ask the person (the first-close dialog).
    Ask,
    /// Destroy the window, keep running in the tray.
    ToTray,
    /// Quit the app.
    Quit,
}

/// The close decision: `setting` is `preferences.on_close` (`None`: the app is not open, e.g.
/// locked, so there is nothing to keep running for and no setting to save an answer in);
/// without a tray icon there would be no way back, so closing quits.
pub fn decide(setting: Option<OnClose>, tray_shown: bool) -> Close {
    match (setting, tray_shown) {
        (None, _) | (Some(OnClose::Quit), _) | (Some(_), false) => Close::Quit,
        (Some(OnClose::Ask), true) => Close::Ask,
        (Some(OnClose::Tray), true) => Close::ToTray,
    }
}

/// Set once the window went to the tray: the event loop's exit request (the last window gone)
/// is then refused; an explicit quit (`AppHandle::exit`) is not.
#[derive(Default)]
pub struct InTray(AtomicBool);

impl InTray {
    pub fn get(&self) -> bool {
        self.0.load(Ordering::SeqCst)
    }
    fn set(&self, on: bool) {
        self.0.store(on, Ordering::SeqCst);
    }
}

/// The decision for the window as the settings stand now.
pub fn decide_now(handle: &AppHandle) -> Close {
    let setting = handle.state::<Shell>().opened().map(|app| app.settings().preferences.on_close);
    let tray = handle.try_state::<TrayShown>().is_some_and(|t| t.0);
    decide(setting, tray)
}

/// The window's close button (`WindowEvent::CloseRequested`): `true` when the close must be
/// prevented (the dialog asks first).
pub fn on_close_requested(window: &tauri::Window) -> bool {
    let handle = window.app_handle();
    let close = decide_now(handle);
    tracing::info!(?close, "window close requested");
    match close {
        Close::Ask => {
            ask(handle);
            true
        }
        Close::ToTray => {
            handle.state::<InTray>().set(true);
            tray::refresh(handle);
            false
        }
        Close::Quit => {
            handle.state::<InTray>().set(false);
            false
        }
    }
}

/// Tells the window's UI to show the first-close dialog: a DOM event on its `window`
/// (`vibelife:close-requested`, ui/src/tray/CloseDialog.tsx), so the UI needs no event
/// permission.
fn ask(handle: &AppHandle) {
    if let Some(window) = handle.get_webview_window(MAIN)
        && let Err(e) = window.eval("window.dispatchEvent(new Event('vibelife:close-requested'))")
    {
        tracing::warn!("the close dialog could not be asked for: {e}");
    }
}

/// After the dialog's answer was saved (`close_window`): close as the setting now says.
pub fn close_as_chosen(handle: &AppHandle) {
    match decide_now(handle) {
        Close::ToTray => {
            handle.state::<InTray>().set(true);
            tray::refresh(handle);
            if let Some(window) = handle.get_webview_window(MAIN)
                && let Err(e) = window.destroy()
            {
                tracing::warn!("the window could not be closed: {e}");
            }
        }
        // Still "ask" here means the answer was not saved: quitting is what the person asked.
        Close::Ask | Close::Quit => handle.exit(0),
    }
}

/// Where the window opens.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Screen {
    /// Where it was (a window that is open), else the home screen (Today).
    Home,
    /// Today, with its reminders.
    Today,
    /// A reminder's question in its run's conversation (its key `RUN/STEP/AT`, as the UI's
    /// `reminderKey`): the action of its notification.
    Reminder(String),
}

impl Screen {
    /// The URL fragment the UI follows for this screen (ui/src/App.tsx), if any.
    pub fn fragment(&self) -> Option<String> {
        match self {
            Screen::Home => None,
            Screen::Today => Some("#today".into()),
            Screen::Reminder(key) => Some(format!("#reminder={key}")),
        }
    }
}

/// Shows the window: the open one raised (turned to `screen`), else a new one (from
/// tauri.conf.json's `main`) that starts on `screen`.
pub fn open(handle: &AppHandle, screen: &Screen) {
    let fragment = screen.fragment();
    if let Some(window) = handle.get_webview_window(MAIN) {
        let _ = window.unminimize();
        let _ = window.show();
        let _ = window.set_focus();
        if let Some(fragment) = fragment
            && let Err(e) = window.eval(format!("location.hash = {}", js_string(&fragment)))
        {
            tracing::warn!("the window could not be turned to {fragment}: {e}");
        }
        return;
    }
    // A new window starts on its home screen, Today (ui/src/App.tsx), or the fragment's.
    match create_at(handle, fragment.as_deref()) {
        Ok(()) => {
            handle.state::<InTray>().set(false);
            tracing::info!("window opened from the tray");
        }
        Err(e) => tracing::error!("the window could not be opened: {e}"),
    }
    tray::refresh(handle);
}

/// A choice from the tray's menu.
pub fn on_tray_choice(handle: &AppHandle, choice: tray::MenuChoice) {
    match choice {
        tray::MenuChoice::Open => open(handle, &Screen::Home),
        tray::MenuChoice::Today => open(handle, &Screen::Today),
        tray::MenuChoice::Quit => handle.exit(0),
        tray::MenuChoice::Update => {
            open(handle, &Screen::Home);
            crate::update_runs::show_found(handle);
        }
    }
}

/// Makes the main window from its configuration (`create: false` there: start-up calls this).
pub fn create(handle: &AppHandle) -> anyhow::Result<()> {
    create_at(handle, None)
}

/// A JavaScript string literal of `text`.
fn js_string(text: &str) -> String {
    serde_json::Value::from(text).to_string()
}

/// The script a new window runs before the UI's own: it starts on `fragment` (a reload keeps
/// the fragment the UI set since).
fn start_script(fragment: &str) -> String {
    format!("if (!location.hash) history.replaceState(null, '', {});", js_string(fragment))
}

/// `create`, the new window starting on `fragment` when given.
fn create_at(handle: &AppHandle, fragment: Option<&str>) -> anyhow::Result<()> {
    let config = handle
        .config()
        .app
        .windows
        .iter()
        .find(|w| w.label == MAIN)
        .cloned()
        .ok_or_else(|| anyhow::anyhow!("tauri.conf.json has no `{MAIN}` window"))?;
    let mut builder = WebviewWindowBuilder::from_config(handle, &config)?;
    if let Some(fragment) = fragment {
        builder = builder.initialization_script(start_script(fragment));
    }
    let window = builder.build()?;
    crate::webview::configure(&window);
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_first_close_asks_then_the_answer_is_followed() {
        assert_eq!(decide(Some(OnClose::Ask), true), Close::Ask);
        assert_eq!(decide(Some(OnClose::Tray), true), Close::ToTray);
        assert_eq!(decide(Some(OnClose::Quit), true), Close::Quit);
    }

    #[test]
    fn without_a_tray_or_an_open_app_closing_quits() {
        for setting in [OnClose::Ask, OnClose::Tray, OnClose::Quit] {
            assert_eq!(decide(Some(setting), false), Close::Quit, "{setting:?}");
        }
        assert_eq!(decide(None, true), Close::Quit);
    }

    #[test]
    fn each_data_folder_is_its_own_instance() {
        let a = instance_id(
            "app.vibelife.desktop",
            std::path::Path::new("/home/a/.local/share/vibelife"),
        );
        let b = instance_id("app.vibelife.desktop", std::path::Path::new("/tmp/test-data"));
        assert_ne!(a, b);
        assert_eq!(
            a,
            instance_id(
                "app.vibelife.desktop",
                std::path::Path::new("/home/a/.local/share/vibelife")
            )
        );
        // A D-Bus name element may not start with a digit.
        assert!(a.starts_with("app.vibelife.desktop.d"), "{a}");
    }

    #[test]
    fn a_reminder_opens_the_window_at_its_fragment() {
        assert_eq!(Screen::Home.fragment(), None);
        assert_eq!(Screen::Today.fragment().as_deref(), Some("#today"));
        let reminder = Screen::Reminder("0b5c/2/11:00".into());
        assert_eq!(reminder.fragment().as_deref(), Some("#reminder=0b5c/2/11:00"));
        assert_eq!(
            start_script("#reminder=a'b\"c"),
            r##"if (!location.hash) history.replaceState(null, '', "#reminder=a'b\"c");"##
        );
    }

    #[test]
    fn only_the_minimized_argument_starts_in_the_tray() {
        assert!(starts_minimized(&["--minimized"]));
        assert!(starts_minimized(&["x", "--minimized"]));
        assert!(!starts_minimized::<&str>(&[]));
        assert!(!starts_minimized(&["--minimised", "-m"]));
    }
}
