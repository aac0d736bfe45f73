//! `update_check` and `update_install` (docs/packaging.md#updates): the core says whether a
//! check may happen now (the person's choice, once a day) and keeps its time; `crate::update`
//! talks to the update server through tauri-plugin-updater. No product logic.

use std::time::SystemTime;

use tauri::{AppHandle, State};
use vibe_core::app::updates::CheckDecision;
use vibe_wire::command::{CommandError, UpdateCheck, UpdateCheckRequest, UpdateInstall};

use crate::shell::Shell;
use crate::update::{self, Pending};

#[tauri::command]
pub async fn update_check(
    app: AppHandle,
    shell: State<'_, Shell>,
    pending: State<'_, Pending>,
    request: UpdateCheckRequest,
) -> Result<UpdateCheck, CommandError> {
    let core = shell.app().await?;
    let now = SystemTime::now();
    let decision = core.update_check_decision(now, request.manual);
    if decision == CheckDecision::Check {
        // Recorded first: a server that fails is not asked again within the day.
        core.record_update_check(now).map_err(|e| e.to_command_error())?;
    }
    let endpoint = std::env::var(update::URL_ENV).ok();
    let (answer, found) = update::check(decision, || update::builder(&app, endpoint)).await;
    if decision == CheckDecision::Check {
        pending.set(found);
    }
    Ok(answer)
}

#[tauri::command]
pub async fn update_install(pending: State<'_, Pending>) -> Result<UpdateInstall, CommandError> {
    match pending.get() {
        Some(found) => Ok(update::install(found).await),
        None => Ok(UpdateInstall::NothingToInstall),
    }
}
