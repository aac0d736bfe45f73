//! Unlocking the data dir: the passphrase (or, for a new data dir without a keychain, the
//! explicit choice of no encryption) the person gives when the app could not open alone. The
//! key handling is the core's (`vibe_core::app::dbkey`); the passphrase is never logged.
//! (A backup and an export of the open data dir are list commands, `commands::wire`; restore
//! and erase need the app closed, so they are the command line's.)

use std::sync::Arc;

use tauri::State;
use vibe_core::app::Overrides;
use vibe_wire::command::{CommandError, UnlockDatabaseRequest, UnlockDatabaseResponse};
use zeroize::Zeroizing;

use crate::shell::{Shell, open_app};

#[tauri::command]
pub async fn unlock_database(
    shell: State<'_, Shell>,
    request: UnlockDatabaseRequest,
) -> Result<UnlockDatabaseResponse, CommandError> {
    let overrides = Overrides {
        db_passphrase: request.passphrase.map(Zeroizing::new),
        no_encryption: request.no_encryption,
        ..Shell::overrides()
    };
    let paths = shell.paths().clone();
    let opened = tauri::async_runtime::spawn_blocking(move || open_app(paths, overrides))
        .await
        .map_err(|e| super::internal(format!("opening the data folder stopped: {e}")))??;
    let encryption = opened.encryption();
    shell.replace(Arc::new(opened));
    Ok(UnlockDatabaseResponse { encryption })
}
