//! The profile document, a skill's saved state and its chart: get, set and compute. Checking a birth place or
//! date, and merging state, are the core's.

use tauri::State;
use vibe_wire::command::{
    ChartView, CommandError, ComputeChartRequest, EditStateEntryRequest, LookupPlaceRequest,
    PlaceLookup, ProfileSet, ProfileView, SetProfilePathRequest, SkillStateRequest, SkillStateView,
    StateEntryEdited, StateWritten, WriteStateRequest,
};

use super::blocking;
use crate::shell::Shell;

#[tauri::command]
pub async fn get_profile(shell: State<'_, Shell>) -> Result<ProfileView, CommandError> {
    blocking(&shell, |app| app.get_profile()).await
}

#[tauri::command]
pub async fn set_profile_path(
    shell: State<'_, Shell>,
    request: SetProfilePathRequest,
) -> Result<ProfileSet, CommandError> {
    blocking(&shell, move |app| app.set_profile_path(&request)).await
}

#[tauri::command]
pub async fn lookup_place(
    shell: State<'_, Shell>,
    request: LookupPlaceRequest,
) -> Result<PlaceLookup, CommandError> {
    blocking(&shell, move |app| app.lookup_place(&request)).await
}

#[tauri::command]
pub async fn skill_state(
    shell: State<'_, Shell>,
    request: SkillStateRequest,
) -> Result<SkillStateView, CommandError> {
    blocking(&shell, move |app| app.skill_state(&request)).await
}

#[tauri::command]
pub async fn write_state(
    shell: State<'_, Shell>,
    request: WriteStateRequest,
) -> Result<StateWritten, CommandError> {
    blocking(&shell, move |app| app.write_state(&request)).await
}

/// One entry of a skill-state list replaced in place (a journal entry edited in "Me").
#[tauri::command]
pub async fn edit_state_entry(
    shell: State<'_, Shell>,
    request: EditStateEntryRequest,
) -> Result<StateEntryEdited, CommandError> {
    blocking(&shell, move |app| app.edit_state_entry(&request)).await
}

#[tauri::command]
pub async fn compute_chart(
    shell: State<'_, Shell>,
    request: ComputeChartRequest,
) -> Result<ChartView, CommandError> {
    blocking(&shell, move |app| app.compute_chart(&request)).await
}
