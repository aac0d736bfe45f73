//! The shell's half of the command list (`vibe_wire::with_commands!`): every command of its
//! `app` section becomes a Tauri command here, answered by `App` through the
//! `vibe_wire::command::Commands` trait — `blocking` ones on a blocking thread, `stream` ones on
//! a task of their own with their events sent to the caller's channel — and [`handler`] lists
//! them with the `shell` section's hand-written commands (re-exported by `commands`, so a
//! listed one that is missing does not compile). No product logic here.

use std::sync::Arc;

use tauri::State;
use tauri::ipc::Channel;
use vibe_core::app::App;
use vibe_core::emit::EventSink;
use vibe_wire::Envelope;
#[allow(clippy::wildcard_imports)]
use vibe_wire::command::*;

use super::{blocking, internal};
use crate::shell::Shell;
use crate::sink::ChannelSink;

macro_rules! tauri_commands {
    (
        app { $( $(#[$meta:meta])* $kind:ident $name:ident ( $($req:ty)? ) -> $res:ty; )* }
        shell { $( $(#[$smeta:meta])* $skind:ident $sname:ident ( $($sreq:ty)? ) -> $sres:ty; )* }
    ) => {
        $( tauri_commands!(@command $kind $name ($($req)?) -> $res); )*

        /// Every command the window may invoke: the list's, then the shell's own.
        pub fn handler() -> impl Fn(tauri::ipc::Invoke) -> bool + Send + Sync + 'static {
            tauri::generate_handler![$($name,)* $(super::$sname,)*]
        }
    };
    (@command sync $name:ident ($($req:ty)?) -> $res:ty) => {
        #[tauri::command]
        async fn $name(
            shell: State<'_, Shell> $(, request: $req)?
        ) -> Result<$res, CommandError> {
            <App as Commands>::$name(&*shell.app().await? $(, { let r: $req = request; r })?)
                .map_err(|e| e.to_command_error())
        }
    };
    (@command blocking $name:ident ($($req:ty)?) -> $res:ty) => {
        #[tauri::command]
        async fn $name(
            shell: State<'_, Shell> $(, request: $req)?
        ) -> Result<$res, CommandError> {
            blocking(&shell, move |app| {
                <App as Commands>::$name(app $(, { let r: $req = request; r })?)
            })
            .await
        }
    };
    (@command future $name:ident ($($req:ty)?) -> $res:ty) => {
        #[tauri::command]
        async fn $name(
            shell: State<'_, Shell> $(, request: $req)?
        ) -> Result<$res, CommandError> {
            let app = shell.app().await?;
            <App as Commands>::$name(&*app $(, { let r: $req = request; r })?)
                .await
                .map_err(|e| e.to_command_error())
        }
    };
    (@command stream $name:ident ($($req:ty)?) -> $res:ty) => {
        #[tauri::command]
        async fn $name(
            shell: State<'_, Shell> $(, request: $req)?,
            on_event: Channel<Envelope>,
        ) -> Result<$res, CommandError> {
            let app = shell.app().await?;
            let sink: Arc<dyn EventSink> = Arc::new(ChannelSink(on_event));
            // Its own task: the command's future may be dropped with the window; a turn or a
            // download must still end (and be stored) properly.
            let task = tauri::async_runtime::spawn(async move {
                <App as Commands>::$name(&*app $(, { let r: $req = request; r })?, sink).await
            });
            match task.await {
                Ok(result) => result.map_err(|e| e.to_command_error()),
                Err(e) => Err(internal(format!(
                    concat!("the task of ", stringify!($name), " stopped: {}"),
                    e
                ))),
            }
        }
    };
}

vibe_wire::with_commands!(tauri_commands);
