//! The tray icon and its menu: Open, Today's reminders, Quit, and "Update available" at the
//! top while an update check found one (`update_runs` says when), worded in the app's language
//! (`preferences.language`; `system` follows the locale of the environment). Owns building the
//! icon and the words of its menu; what each item does is `window`'s (open), `update_runs`'s
//! (the update dialog) or the app's exit. The menu follows a language change within a minute
//! (`refresh`, called from the reminder clock), an update check, and the window opening or
//! closing.

use std::sync::atomic::{AtomicBool, Ordering};
use tauri::menu::{Menu, MenuItem, PredefinedMenuItem};
use tauri::tray::TrayIconBuilder;

use tauri::{AppHandle, Manager as _};
use vibe_wire::settings::Language;

use crate::shell::Shell;

/// The shell's own words in one language: the tray menu's, and the action of a reminder's
/// notification (`reminders.rs`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct MenuLabels {
    pub open: &'static str,
    pub today: &'static str,
    pub quit: &'static str,
    pub answer: &'static str,
    pub update: &'static str,
}

const ZH_CN: MenuLabels = MenuLabels {
    open: "打开 VibeLife",
    today: "今日提醒",
    quit: "退出",
    answer: "现在回答",
    update: "有可用更新…",
};
const EN: MenuLabels = MenuLabels {
    open: "Open VibeLife",
    today: "Today's reminders",
    quit: "Quit",
    answer: "Answer now",
    update: "Update available…",
};

/// The menu's words for `language`; `system` reads `locale` (the first of `LC_ALL`,
/// `LC_MESSAGES`, `LANG` that is set, as the UI's web view does): Chinese for `zh*`, else English.
pub fn labels(language: Language, locale: Option<&str>) -> MenuLabels {
    match language {
        Language::ZhCn => ZH_CN,
        Language::En => EN,
        Language::System => match locale {
            Some(l) if l.trim().to_ascii_lowercase().starts_with("zh") => ZH_CN,
            _ => EN,
        },
    }
}

/// The environment's locale, as `labels` reads it.
fn env_locale() -> Option<String> {
    ["LC_ALL", "LC_MESSAGES", "LANG"]
        .iter()
        .find_map(|k| std::env::var(k).ok().filter(|v| !v.is_empty()))
}

/// The words for the app's current language setting (the default when the app is not open).
pub fn current_labels(handle: &AppHandle) -> MenuLabels {
    let language = match handle.state::<Shell>().opened() {
        Some(app) => app.settings().preferences.language,
        None => Language::System,
    };
    labels(language, env_locale().as_deref())
}

/// The menu's items, kept to re-word them; "Update available" is in the menu only while an
/// update was found.
pub struct TrayMenu {
    menu: Menu<tauri::Wry>,
    open: MenuItem<tauri::Wry>,
    today: MenuItem<tauri::Wry>,
    quit: MenuItem<tauri::Wry>,
    update: MenuItem<tauri::Wry>,
    update_shown: AtomicBool,
}

/// Whether the tray icon is there (closing to the tray needs a way back).
pub struct TrayShown(pub bool);

/// What a menu item asks for. What it does is the caller's (`window::on_tray_choice`): the
/// tray does not own the window.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum MenuChoice {
    Open,
    Today,
    Quit,
    /// The update found: the window with its update dialog.
    Update,
}

/// Builds the tray icon, its menu's choices going to `on_choice`; `false` (logged) when this
/// desktop has no tray.
pub fn build(handle: &AppHandle, on_choice: fn(&AppHandle, MenuChoice)) -> bool {
    match try_build(handle, on_choice) {
        Ok(menu) => {
            handle.manage(menu);
            true
        }
        Err(e) => {
            tracing::warn!("no tray icon (closing the window will quit): {e}");
            false
        }
    }
}

fn try_build(handle: &AppHandle, on_choice: fn(&AppHandle, MenuChoice)) -> tauri::Result<TrayMenu> {
    let words = current_labels(handle);
    let open = MenuItem::with_id(handle, "open", words.open, true, None::<&str>)?;
    let today = MenuItem::with_id(handle, "today", words.today, true, None::<&str>)?;
    let quit = MenuItem::with_id(handle, "quit", words.quit, true, None::<&str>)?;
    let update = MenuItem::with_id(handle, "update", words.update, true, None::<&str>)?;
    let separator = PredefinedMenuItem::separator(handle)?;
    let menu = Menu::with_items(handle, &[&open, &today, &separator, &quit])?;
    let mut tray = TrayIconBuilder::with_id("main")
        .tooltip("VibeLife")
        .menu(&menu)
        .show_menu_on_left_click(true)
        .on_menu_event(move |app, event| {
            let choice = match event.id().as_ref() {
                "open" => MenuChoice::Open,
                "today" => MenuChoice::Today,
                "quit" => MenuChoice::Quit,
                "update" => MenuChoice::Update,
                _ => return,
            };
            on_choice(app, choice);
        });
    if let Some(icon) = handle.default_window_icon().cloned() {
        tray = tray.icon(icon);
    }
    tray.build(handle)?;
    Ok(TrayMenu { menu, open, today, quit, update, update_shown: AtomicBool::new(false) })
}

/// Re-words the menu after the language setting (nothing when there is no tray).
pub fn refresh(handle: &AppHandle) {
    let Some(menu) = handle.try_state::<TrayMenu>() else { return };
    let words = current_labels(handle);
    for (item, text) in [
        (&menu.open, words.open),
        (&menu.today, words.today),
        (&menu.quit, words.quit),
        (&menu.update, words.update),
    ] {
        if item.text().ok().as_deref() != Some(text)
            && let Err(e) = item.set_text(text)
        {
            tracing::debug!("tray menu not re-worded: {e}");
        }
    }
}

/// Puts "Update available" at the top of the menu while an update `found` is kept for the
/// install (`update_runs` says so after each check), or takes it away.
pub fn show_update(handle: &AppHandle, found: bool) {
    let Some(menu) = handle.try_state::<TrayMenu>() else { return };
    if menu.update_shown.load(Ordering::SeqCst) == found {
        return;
    }
    let changed =
        if found { menu.menu.insert(&menu.update, 0) } else { menu.menu.remove(&menu.update) };
    match changed {
        Ok(()) => menu.update_shown.store(found, Ordering::SeqCst),
        Err(e) => tracing::debug!("the tray's update item not changed: {e}"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_menu_speaks_the_chosen_language() {
        assert_eq!(labels(Language::ZhCn, Some("en_US.UTF-8")).quit, "退出");
        assert_eq!(labels(Language::En, Some("zh_CN.UTF-8")).today, "Today's reminders");
        assert_eq!(labels(Language::ZhCn, None).today, "今日提醒");
        assert_eq!(labels(Language::ZhCn, None).answer, "现在回答");
        assert_eq!(labels(Language::En, None).answer, "Answer now");
        assert_eq!(labels(Language::ZhCn, None).update, "有可用更新…");
        assert_eq!(labels(Language::En, None).update, "Update available…");
    }

    #[test]
    fn the_system_language_follows_the_locale_and_falls_back_to_english() {
        for zh in ["zh_CN.UTF-8", "zh_TW", "ZH", " zh-Hans "] {
            assert_eq!(labels(Language::System, Some(zh)), ZH_CN, "{zh}");
        }
        for other in [None, Some(""), Some("C"), Some("en_GB.UTF-8"), Some("de_DE")] {
            assert_eq!(labels(Language::System, other), EN, "{other:?}");
        }
    }
}
