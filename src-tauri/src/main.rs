//! VibeLife's desktop app: a Tauri 2 window over the same `vibe_core::app::App` the `vibe` CLI
//! uses. Owns start-up only (logging, opening the app, the plugins, the tray and the first
//! window); every command is named in the wire crate's command list and mostly answered by the
//! core (`commands/`), so the shell holds no product logic.

// No console window on Windows release builds.
#![cfg_attr(not(debug_assertions), windows_subsystem = "windows")]

mod commands;
mod idle;
mod logging;
mod quit;
mod reminders;
mod shell;
mod sink;
mod tray;
mod update;
mod update_runs;
mod webview;
mod window;

use anyhow::Context as _;
use tauri::Manager as _;

/// The core's allocator, as in the `vibe` CLI (docs/performance.md, "Session 8").
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

/// When `main` began, for the launch time the log records (`commands::desktop::ui_ready`).
pub struct Started(pub std::time::Instant);

fn main() -> anyhow::Result<()> {
    let started = Started(std::time::Instant::now());
    // Before any thread and before GTK: it reads GDK_GL once, when it opens the display.
    webview::apply_gdk_gl();
    let context = tauri::generate_context!("../tauri.conf.json");
    let instance =
        window::instance_id(&context.config().identifier, &shell::Shell::paths_from_env().data_dir);
    let args: Vec<String> = std::env::args().skip(1).collect();
    tauri::Builder::default()
        // First: a second launch over the same data folder opens this one's window and ends.
        .plugin(
            tauri_plugin_single_instance::Builder::new()
                .dbus_id(instance)
                .callback(|app, argv, _cwd| window::second_launch(app, &argv))
                .build(),
        )
        .manage(started)
        .manage(commands::skills_watch::SkillsWatch::default())
        .manage(commands::sync_watch::SyncWatch::default())
        .manage(window::InTray::default())
        .manage(update_runs::AppChecks::default())
        .plugin(tauri_plugin_dialog::init())
        .plugin(tauri_plugin_notification::init())
        // Its public key and endpoint: tauri.conf.json, `plugins.updater` (src/update.rs).
        .plugin(tauri_plugin_updater::Builder::new().build())
        .plugin(tauri_plugin_autostart::init(
            tauri_plugin_autostart::MacosLauncher::LaunchAgent,
            Some(vec![window::MINIMIZED]),
        ))
        .setup(move |app| {
            let log_dir = app.path().app_log_dir().context("no log dir for this user")?;
            let guard = logging::init(&log_dir)?;
            app.manage(guard);
            let minimized = window::starts_minimized(&args);
            tracing::info!(version = env!("CARGO_PKG_VERSION"), minimized, "vibelife starting");
            // The app opens while the window starts; the tray re-words its menu in the
            // language the settings name once they are read.
            let tray_handle = app.handle().clone();
            app.manage(shell::Shell::open(move || tray::refresh(&tray_handle)));
            let shown = tray::build(app.handle(), window::on_tray_choice);
            app.manage(tray::TrayShown(shown));
            // Launched by autostart: only the tray (a desktop without one gets the window).
            if !(minimized && shown) {
                window::create(app.handle())?;
            }
            tauri::async_runtime::spawn(idle::memory_checks(app.handle().clone()));
            tauri::async_runtime::spawn(reminders::notify_due(app.handle().clone()));
            tauri::async_runtime::spawn(update_runs::every(app.handle().clone()));
            tauri::async_runtime::spawn(quit::on_signal(app.handle().clone()));
            Ok(())
        })
        .on_window_event(|window, event| {
            if let tauri::WindowEvent::CloseRequested { api, .. } = event
                && window.label() == window::MAIN
                && window::on_close_requested(window)
            {
                api.prevent_close();
            }
        })
        .invoke_handler(commands::wire::handler())
        .build(context)
        .context("the desktop app could not start")?
        .run(|handle, event| match event {
            // The last window went to the tray (not an explicit quit, which has a code).
            tauri::RunEvent::ExitRequested { code: None, api, .. }
                if handle.state::<window::InTray>().get() =>
            {
                tracing::info!("running in the tray");
                api.prevent_exit();
            }
            tauri::RunEvent::Exit => {
                // The process ends without closing a run that may still be going: write what
                // waits in its log first.
                vibe_core::audit::write_waiting(std::time::Duration::from_secs(1));
                // Other threads still hold the app as the process ends: the database's
                // session is closed here, so the next start sees a clean end.
                if let Some(shell) = handle.try_state::<shell::Shell>() {
                    shell.close();
                }
                tracing::info!("vibelife quit");
                if let Some(log) = handle.try_state::<logging::Guard>() {
                    log.flush();
                }
            }
            _ => {}
        });
    Ok(())
}
