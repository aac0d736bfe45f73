//! `update_check` and `update_install` (docs/packaging.md#updates): the core says whether a
//! check may happen now (the person's choice, once a day) and keeps its time;
//! `crate::update_runs` keeps one check at a time and the update found; `crate::update` talks
//! to the update server through tauri-plugin-updater. No product logic.

use tauri::{AppHandle, State};
use vibe_wire::command::{CommandError, UpdateCheck, UpdateCheckRequest, UpdateInstall};

use crate::shell::Shell;
use crate::update;
use crate::update_runs::{self, AppChecks, Asker};

#[tauri::command]
pub async fn update_check(
    app: AppHandle,
    shell: State<'_, Shell>,
    request: UpdateCheckRequest,
) -> Result<UpdateCheck, CommandError> {
    let core = shell.app().await?;
    let asker = if request.manual { Asker::Manual } else { Asker::Window };
    update_runs::run_now(&app, &core, asker).await.map_err(|e| e.to_command_error())
}

#[tauri::command]
pub async fn update_install(checks: State<'_, AppChecks>) -> Result<UpdateInstall, CommandError> {
    match checks.update() {
        Some(found) => Ok(update::install(found).await),
        None => Ok(UpdateInstall::NothingToInstall),
    }
}
