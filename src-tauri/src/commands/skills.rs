//! Skill commands: list, show, check, create from the template, reload. The registry and its checks are the core's.

use tauri::State;
use vibe_wire::command::{
    CheckSkillsRequest, CommandError, NewSkillRequest, NewSkillResponse, ShowSkillRequest,
    SkillCheckReport, SkillDetail, SkillList, SkillsReloaded,
};

use super::blocking;
use crate::shell::Shell;

#[tauri::command]
pub async fn list_skills(shell: State<'_, Shell>) -> Result<SkillList, CommandError> {
    blocking(&shell, |app| Ok(app.list_skills())).await
}

#[tauri::command]
pub async fn show_skill(
    shell: State<'_, Shell>,
    request: ShowSkillRequest,
) -> Result<SkillDetail, CommandError> {
    blocking(&shell, move |app| app.show_skill(&request)).await
}

#[tauri::command]
pub async fn check_skills(
    shell: State<'_, Shell>,
    request: CheckSkillsRequest,
) -> Result<SkillCheckReport, CommandError> {
    blocking(&shell, move |app| Ok(app.check_skills(&request))).await
}

#[tauri::command]
pub async fn reload_skills(shell: State<'_, Shell>) -> Result<SkillsReloaded, CommandError> {
    blocking(&shell, |app| Ok(app.reload_skills())).await
}

#[tauri::command]
pub async fn new_skill(
    shell: State<'_, Shell>,
    request: NewSkillRequest,
) -> Result<NewSkillResponse, CommandError> {
    blocking(&shell, move |app| app.new_skill(&request)).await
}
