//! The memory settings (the `chat.memory` section: when extraction runs; a wire type with its
//! defaults, `vibe_wire::settings::MemorySettings`) and the person's memory switch
//! (`preferences.memory` in the profile: off means no extraction and nothing of memory in
//! prompts). The switch's profile path and how a profile reads it are the context crate's
//! (`vibe-context`, `memory.rs`), which leaves memory out of prompts when it is off.

use serde_json::Value;
use vibe_context::{MEMORY_PREFERENCE, memory_switch};
use vibe_store::Store;
pub use vibe_wire::settings::MemorySettings;

use crate::CoreError;

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
