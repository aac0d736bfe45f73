//! What only the desktop shell answers about living beside the desktop: whether VibeLife starts
//! at login. The entry itself (an XDG autostart file, a login item, a registry key) is the
//! shell's; nothing here knows how it is written.

use serde::{Deserialize, Serialize};

/// `autostart_status` / `set_autostart`: whether VibeLife starts at login (minimised to the
/// tray). Off until the person turns it on.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct Autostart {
    pub enabled: bool,
}

/// `set_autostart`: turn starting at login on or off.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct SetAutostartRequest {
    pub enabled: bool,
}
