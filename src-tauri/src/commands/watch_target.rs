//! Where a watch command's notices go: the webview's one channel for them (a new call
//! replaces the old channel) and the source a forwarder listens to (so a second call with the
//! same source starts no second forwarder). Shared by `watch_skills` and `watch_sync`; what
//! is forwarded, and from where, is each watch's own.

use std::sync::{Arc, Mutex, PoisonError};

use tauri::ipc::Channel;
use vibe_core::emit::Emitter;
use vibe_wire::{Envelope, Event};

use crate::sink::ChannelSink;

#[derive(Default)]
pub struct WatchTarget {
    channel: Arc<Mutex<Option<Emitter>>>,
    /// The source's address (an `Arc`'s pointer) a forwarder listens to.
    listening: Mutex<usize>,
}

/// Sends notices to the channel a [`WatchTarget`] points to at the time of each notice.
#[derive(Clone)]
pub struct Forward(Arc<Mutex<Option<Emitter>>>);

impl Forward {
    pub fn emit(&self, event: Event) {
        if let Some(emitter) = self.0.lock().unwrap_or_else(PoisonError::into_inner).as_ref() {
            emitter.emit(event);
        }
    }
}

impl WatchTarget {
    /// Sends from now on to `channel`. Answers a [`Forward`] when `source` is not listened to
    /// yet (the caller starts forwarding from it), else `None`.
    pub fn point_to<T>(&self, channel: Channel<Envelope>, source: &Arc<T>) -> Option<Forward> {
        *self.channel.lock().unwrap_or_else(PoisonError::into_inner) =
            Some(Emitter::new("", vec![Arc::new(ChannelSink(channel))]));
        let address = Arc::as_ptr(source) as *const () as usize;
        let mut listening = self.listening.lock().unwrap_or_else(PoisonError::into_inner);
        if *listening == address {
            return None;
        }
        *listening = address;
        Some(Forward(self.channel.clone()))
    }
}
