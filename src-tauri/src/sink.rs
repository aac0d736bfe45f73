//! The run-event sink of the desktop app: every event of a turn goes to the webview through the
//! `tauri::ipc::Channel` the UI passed to `send_message`, in order. Owns delivery only.

use tauri::ipc::Channel;
use vibe_core::emit::EventSink;
use vibe_wire::Envelope;

pub struct ChannelSink(pub Channel<Envelope>);

impl EventSink for ChannelSink {
    fn send(&self, envelope: &Envelope) {
        // A closed window cannot take events; the run goes on and is stored as usual.
        if let Err(e) = self.0.send(envelope.clone()) {
            tracing::debug!(run_id = %envelope.run_id, "run event not delivered to the window: {e}");
        }
    }
}
