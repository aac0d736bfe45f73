//! VibeLife's desktop app: a Tauri 2 window over the same `vibe_core::app::App` the `vibe` CLI
//! uses. Owns start-up only (logging, opening the app, the window); every command is named in
//! the wire crate's command list and mostly answered by the core (`commands/`), so the shell
//! holds no product logic.

// No console window on Windows release builds.
#![cfg_attr(not(debug_assertions), windows_subsystem = "windows")]

mod commands;
mod idle;
mod logging;
mod reminders;
mod shell;
mod sink;
mod webview;

use anyhow::Context as _;
use tauri::Manager as _;

/// The core's allocator, as in the `vibe` CLI (docs/performance.md, "Session 8").
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

/// When `main` began, for the launch time the log records (`commands::desktop::ui_ready`).
pub struct Started(pub std::time::Instant);

fn main() -> anyhow::Result<()> {
    let started = Started(std::time::Instant::now());
    let context = tauri::generate_context!("../tauri.conf.json");
    tauri::Builder::default()
        .manage(started)
        .manage(commands::skills_watch::SkillsWatch::default())
        .plugin(tauri_plugin_dialog::init())
        .plugin(tauri_plugin_notification::init())
        .setup(|app| {
            let log_dir = app.path().app_log_dir().context("no log dir for this user")?;
            let guard = logging::init(&log_dir)?;
            app.manage(guard);
            tracing::info!(version = env!("CARGO_PKG_VERSION"), "vibelife starting");
            app.manage(shell::Shell::open());
            if let Some(window) = app.get_webview_window("main") {
                webview::configure(&window);
            }
            tauri::async_runtime::spawn(idle::memory_checks(app.handle().clone()));
            tauri::async_runtime::spawn(reminders::notify_due(app.handle().clone()));
            Ok(())
        })
        .invoke_handler(commands::wire::handler())
        .build(context)
        .context("the desktop app could not start")?
        .run(|_, event| {
            if let tauri::RunEvent::Exit = event {
                // The process ends without closing a run that may still be going: write what
                // waits in its log first.
                vibe_core::audit::write_waiting(std::time::Duration::from_secs(1));
            }
        });
    Ok(())
}
