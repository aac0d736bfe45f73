//! Turn commands: `send_message` (its events stream through the caller's channel until the run
//! ends; `TurnInput::Retry` answers the last message again), `cancel_run` and
//! `resolve_approval`, which work while a turn runs.

use std::sync::Arc;

use tauri::State;
use tauri::ipc::Channel;
use vibe_wire::Envelope;
use vibe_wire::command::{
    CancelRunRequest, CancelRunResponse, CommandError, ResolveApprovalRequest,
    ResolveApprovalResponse, SendMessageRequest, SendMessageResponse,
};

use crate::shell::Shell;
use crate::sink::ChannelSink;

#[tauri::command]
pub async fn send_message(
    shell: State<'_, Shell>,
    request: SendMessageRequest,
    on_event: Channel<Envelope>,
) -> Result<SendMessageResponse, CommandError> {
    let app = shell.app()?;
    // Run the turn on its own task: the command's future may be dropped with the window, the
    // turn must still end (and be stored) properly.
    let turn = tauri::async_runtime::spawn(async move {
        app.send_message(request, Arc::new(ChannelSink(on_event))).await
    });
    match turn.await {
        Ok(result) => result.map_err(|e| e.to_command_error()),
        Err(e) => Err(super::internal(format!("the turn's task stopped: {e}"))),
    }
}

#[tauri::command]
pub async fn cancel_run(
    shell: State<'_, Shell>,
    request: CancelRunRequest,
) -> Result<CancelRunResponse, CommandError> {
    Ok(shell.app()?.cancel_run(&request))
}

#[tauri::command]
pub async fn resolve_approval(
    shell: State<'_, Shell>,
    request: ResolveApprovalRequest,
) -> Result<ResolveApprovalResponse, CommandError> {
    Ok(shell.app()?.resolve_approval(&request))
}
