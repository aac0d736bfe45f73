//! The memory settings (the `chat.memory` section: when extraction runs; a wire type with its
//! defaults, `vibe_wire::settings::MemorySettings`) and the person's memory switch (`preferences.memory` in the profile: off means no extraction and nothing
//! of memory in prompts).

use serde_json::Value;
use vibe_store::Store;
pub use vibe_wire::settings::MemorySettings;

use crate::CoreError;

/// The profile path of the memory switch (`true` or absent: on; `false`: off).
pub const MEMORY_PREFERENCE: &str = "preferences.memory";

/// Whether the person's memory switch is on (absent counts as on).
pub fn memory_enabled(store: &Store, user: &str) -> Result<bool, CoreError> {
    let profile = store.profile(user)?;
    Ok(switch_of(&profile))
}

/// The switch as read from a profile (or a view of it).
pub(crate) fn switch_of(profile: &Value) -> bool {
    profile.pointer("/preferences/memory").and_then(Value::as_bool).unwrap_or(true)
}

/// Turn the memory switch on or off.
pub fn set_memory_enabled(store: &Store, user: &str, on: bool) -> Result<(), CoreError> {
    store.set_path(user, MEMORY_PREFERENCE, Value::Bool(on))?;
    Ok(())
}
