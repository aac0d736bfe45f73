//! The commands the webview may invoke, all named in the command list of the wire crate
//! (`vibe_wire::with_commands!`): its `app` section is generated in `wire` (answered by the
//! core's `App`), its `shell` section is written by hand in the other modules here (dialogs,
//! opening a folder, unlocking, the skills and sync watches, closing to the tray, starting at login,
//! updates) and
//! re-exported below, where the generated handler finds them. Requests and responses are the wire crate's types, `CommandError` (a
//! typed kind, a message and the data for a hint) the error. Database work runs on blocking
//! threads so no command stalls the event loop. No product logic here.

pub mod database;
pub mod desktop;
pub mod export;
pub mod lifecycle;
pub mod models;
pub mod skills_watch;
pub mod sync_watch;
pub mod update;
pub mod watch_target;
pub mod wire;

// The `shell` section of the command list, by name (with tauri's hidden helpers).
pub use database::*;
pub use desktop::*;
pub use export::*;
pub use lifecycle::*;
pub use models::*;
pub use skills_watch::*;
pub use sync_watch::*;
pub use update::*;

use std::sync::Arc;

use vibe_core::app::{App, AppError};
use vibe_wire::command::CommandError;

use crate::shell::Shell;

/// Runs `f` on the app on a blocking thread (SQLite, the keychain, settings files).
pub async fn blocking<T, F>(shell: &Shell, f: F) -> Result<T, CommandError>
where
    T: Send + 'static,
    F: FnOnce(&App) -> Result<T, AppError> + Send + 'static,
{
    let app: Arc<App> = shell.app().await?;
    match tauri::async_runtime::spawn_blocking(move || f(&app)).await {
        Ok(result) => result.map_err(|e| e.to_command_error()),
        Err(e) => Err(internal(format!("a command's worker stopped: {e}"))),
    }
}

/// An error of the shell itself (not the core's), in the same shape.
pub use crate::shell::internal;
