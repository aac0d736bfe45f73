//! Coaching protocol commands: list protocols and runs, start, decline for now, resume and
//! cancel a run, and the notified reminders still open (the window's reminder card). The
//! engine and its rules are the core's; a report's export is in `report.rs`.

use tauri::State;
use vibe_wire::command::{
    CancelProtocolRequest, CommandError, ListProtocolRunsRequest, ProtocolLater, ProtocolList,
    ProtocolRequest, ProtocolRunChange, ProtocolRunList, ProtocolRunRequest, ProtocolRunView,
    ReminderList,
};

use super::blocking;
use crate::shell::Shell;

#[tauri::command]
pub async fn list_protocols(shell: State<'_, Shell>) -> Result<ProtocolList, CommandError> {
    blocking(&shell, |app| Ok(app.list_protocols())).await
}

#[tauri::command]
pub async fn list_protocol_runs(
    shell: State<'_, Shell>,
    request: ListProtocolRunsRequest,
) -> Result<ProtocolRunList, CommandError> {
    blocking(&shell, move |app| app.list_protocol_runs(&request)).await
}

#[tauri::command]
pub async fn get_protocol_run(
    shell: State<'_, Shell>,
    request: ProtocolRunRequest,
) -> Result<ProtocolRunView, CommandError> {
    blocking(&shell, move |app| app.get_protocol_run(&request)).await
}

#[tauri::command]
pub async fn start_protocol(
    shell: State<'_, Shell>,
    request: ProtocolRequest,
) -> Result<ProtocolRunChange, CommandError> {
    blocking(&shell, move |app| app.start_protocol(&request)).await
}

#[tauri::command]
pub async fn later_protocol(
    shell: State<'_, Shell>,
    request: ProtocolRequest,
) -> Result<ProtocolLater, CommandError> {
    blocking(&shell, move |app| app.later_protocol(&request)).await
}

#[tauri::command]
pub async fn resume_protocol(
    shell: State<'_, Shell>,
    request: ProtocolRunRequest,
) -> Result<ProtocolRunChange, CommandError> {
    blocking(&shell, move |app| app.resume_protocol(&request)).await
}

#[tauri::command]
pub async fn cancel_protocol(
    shell: State<'_, Shell>,
    request: CancelProtocolRequest,
) -> Result<ProtocolRunChange, CommandError> {
    blocking(&shell, move |app| app.cancel_protocol(&request)).await
}

/// The notified reminders still open (`App::reminder_notices`), for the reminder card.
#[tauri::command]
pub async fn reminder_notices(shell: State<'_, Shell>) -> Result<ReminderList, CommandError> {
    blocking(&shell, |app| app.reminder_notices()).await
}
