//! The commands the webview may invoke: each is one wire command (`vibe_wire::command`) handed
//! to the core's `App`, with the wire crate's request and response types and `CommandError`
//! (a typed kind, a message and the data for a hint) as the error. Database work runs on
//! blocking threads so no command stalls the event loop. No product logic here.

pub mod chat;
pub mod conversations;
pub mod database;
pub mod desktop;
pub mod endpoint;
pub mod export;
pub mod memory;
pub mod models;
pub mod profile;
pub mod protocols;
pub mod settings;
pub mod skills;
pub mod skills_watch;

use std::sync::Arc;

use vibe_core::app::{App, AppError};
use vibe_wire::ErrorInfo;
use vibe_wire::command::CommandError;

use crate::shell::Shell;

/// Runs `f` on the app on a blocking thread (SQLite, the keychain, settings files).
pub async fn blocking<T, F>(shell: &Shell, f: F) -> Result<T, CommandError>
where
    T: Send + 'static,
    F: FnOnce(&App) -> Result<T, AppError> + Send + 'static,
{
    let app: Arc<App> = shell.app()?;
    match tauri::async_runtime::spawn_blocking(move || f(&app)).await {
        Ok(result) => result.map_err(|e| e.to_command_error()),
        Err(e) => Err(internal(format!("a command's worker stopped: {e}"))),
    }
}

/// An error of the shell itself (not the core's), in the same shape.
pub fn internal(message: String) -> CommandError {
    tracing::error!("{message}");
    CommandError { error: ErrorInfo::new(vibe_wire::ErrorKind::Internal, message), hint: None }
}
