//! What the client does with a server's notifications ([`Notified`]): it remembers that the
//! server's tool list changed (`notifications/tools/list_changed`) until the owner of the
//! connection takes the news and lists the tools again. Everything else is ignored, as the
//! SDK's default does.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

use rmcp::ClientHandler;
use rmcp::service::{NotificationContext, RoleClient};

/// The client's handler of one connection.
#[derive(Clone, Default)]
pub(crate) struct Notified {
    tools_changed: Arc<AtomicBool>,
}

impl Notified {
    /// Whether the tool list changed since the last call (and forget it).
    pub(crate) fn take_tools_changed(&self) -> bool {
        self.tools_changed.swap(false, Ordering::AcqRel)
    }
}

impl ClientHandler for Notified {
    async fn on_tool_list_changed(&self, _context: NotificationContext<RoleClient>) {
        self.tools_changed.store(true, Ordering::Release);
    }
}
