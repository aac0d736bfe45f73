//! The memory settings (the `chat.memory` section: when extraction runs) and the person's
//! memory switch (`preferences.memory` in the profile: off means no extraction and nothing
//! of memory in prompts). The switch's profile path and how a profile reads it are the context
//! crate's (`vibe-context`, `memory.rs`), which leaves memory out of prompts when it is off.

use serde::{Deserialize, Serialize};
use serde_json::Value;
use vibe_context::{MEMORY_PREFERENCE, memory_switch};
use vibe_store::Store;

use crate::CoreError;

/// When extraction runs by itself (`chat.memory` in settings.json); an unknown key is refused.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct MemorySettings {
    /// A conversation whose newest message is this many minutes old is read. Default 10;
    /// 0 turns the quiet trigger off.
    pub quiet_minutes: u32,
    /// A conversation with this many messages of the person not yet read is read at the end
    /// of the turn. Default 10; 0 turns the turn trigger off.
    pub every_turns: u32,
}

impl Default for MemorySettings {
    fn default() -> Self {
        Self { quiet_minutes: 10, every_turns: 10 }
    }
}

/// Whether the person's memory switch is on (absent counts as on).
pub fn memory_enabled(store: &Store, user: &str) -> Result<bool, CoreError> {
    let profile = store.profile(user)?;
    Ok(memory_switch(&profile))
}

/// Turn the memory switch on or off.
pub fn set_memory_enabled(store: &Store, user: &str, on: bool) -> Result<(), CoreError> {
    store.set_path(user, MEMORY_PREFERENCE, Value::Bool(on))?;
    Ok(())
}
