//! WebKitGTK settings of the window on Linux. Owns one decision: how the web view composites.
//!
//! WebKitGTK composites with GL by default. On this app's pages (text, no animation, no video)
//! that buys nothing a person sees, and it costs about 95 MB in the web process (measured with a
//! 1,000-message conversation open; docs/performance.md), so the app draws in software unless
//! `VIBELIFE_GPU=1` asks for GL (e.g. on a display where software drawing is slow).

/// The environment variable that keeps WebKit's GL compositing on.
pub const GPU_VAR: &str = "VIBELIFE_GPU";

/// Whether the person asked for GL compositing (`VIBELIFE_GPU=1`).
pub fn gpu_requested(value: Option<&str>) -> bool {
    matches!(value.map(str::trim), Some("1" | "true" | "yes" | "on"))
}

/// Applies the compositing decision to `window` (Linux only; elsewhere nothing to do).
pub fn configure(window: &tauri::WebviewWindow) {
    let gpu = gpu_requested(std::env::var(GPU_VAR).ok().as_deref());
    tracing::info!(gpu, "web view compositing: {}", if gpu { "GL" } else { "software" });
    #[cfg(target_os = "linux")]
    if !gpu {
        let result = window.with_webview(|view| {
            use webkit2gtk::{HardwareAccelerationPolicy, SettingsExt as _, WebViewExt as _};
            if let Some(settings) = view.inner().settings() {
                settings.set_hardware_acceleration_policy(HardwareAccelerationPolicy::Never);
            }
        });
        if let Err(e) = result {
            tracing::warn!("could not set the web view's compositing policy: {e}");
        }
    }
    #[cfg(not(target_os = "linux"))]
    let _ = window;
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_an_explicit_yes_turns_gl_on() {
        for on in ["1", "true", "yes", "on", " 1 "] {
            assert!(gpu_requested(Some(on)), "{on}");
        }
        for off in [None, Some(""), Some("0"), Some("false"), Some("no"), Some("gpu")] {
            assert!(!gpu_requested(off), "{off:?}");
        }
    }
}
