//! VibeLife's desktop app: a Tauri 2 window over the same `vibe_core::app::App` the `vibe` CLI
//! uses. Owns start-up only (logging, opening the app, the window, the command list); every
//! command is a wire command answered by the core (`commands/`), so the shell holds no
//! product logic.

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
        .invoke_handler(tauri::generate_handler![
            commands::chat::send_message,
            commands::chat::cancel_run,
            commands::chat::resolve_approval,
            commands::conversations::list_conversations,
            commands::conversations::get_conversation,
            commands::conversations::rename_conversation,
            commands::conversations::delete_conversation,
            commands::conversations::search_conversations,
            commands::settings::get_settings,
            commands::settings::update_settings,
            commands::settings::set_api_key,
            commands::settings::clear_api_key,
            commands::settings::api_key_status,
            commands::endpoint::list_models,
            commands::endpoint::test_connection,
            commands::endpoint::needs_first_run,
            commands::endpoint::detect_local_servers,
            commands::models::list_local_models,
            commands::models::pull_model,
            commands::models::cancel_model_download,
            commands::models::remove_model,
            commands::models::use_model,
            commands::models::add_model_file,
            commands::skills::list_skills,
            commands::skills::show_skill,
            commands::skills::check_skills,
            commands::skills::reload_skills,
            commands::skills::new_skill,
            commands::skills_watch::watch_skills,
            commands::memory::list_memory,
            commands::memory::edit_memory_item,
            commands::memory::forget_memory_item,
            commands::memory::export_memory,
            commands::memory::set_memory_enabled,
            commands::profile::get_profile,
            commands::profile::set_profile_path,
            commands::profile::lookup_place,
            commands::profile::skill_state,
            commands::profile::write_state,
            commands::profile::edit_state_entry,
            commands::profile::compute_chart,
            commands::protocols::list_protocols,
            commands::protocols::list_protocol_runs,
            commands::protocols::get_protocol_run,
            commands::protocols::start_protocol,
            commands::protocols::later_protocol,
            commands::protocols::resume_protocol,
            commands::protocols::cancel_protocol,
            commands::protocols::reminder_notices,
            commands::export::export_protocol_report,
            commands::export::save_memory_export,
            commands::database::unlock_database,
            commands::database::create_backup,
            commands::database::export_all,
            commands::desktop::open_data_dir,
            commands::desktop::open_skills_dir,
            commands::desktop::ui_ready,
        ])
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
