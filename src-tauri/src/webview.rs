//! WebKitGTK settings of the window on Linux. Owns one decision: how the web view composites.
//!
//! WebKitGTK composites with GL by default. On this app's pages (text, no animation, no video)
//! that buys nothing a person sees, and it costs about 95 MB in the web process (measured with a
//! 1,000-message conversation open; docs/performance.md), so the app draws in software unless
//! `VIBELIFE_GPU=1` asks for GL (e.g. on a display where software drawing is slow); drawing in
//! software, GTK's own GL is turned off too (`GDK_GL=disable`, set before GTK starts).

/// The environment variable that keeps WebKit's GL compositing on.
pub const GPU_VAR: &str = "VIBELIFE_GPU";

/// Whether the person asked for GL compositing (`VIBELIFE_GPU=1`).
pub fn gpu_requested(value: Option<&str>) -> bool {
    matches!(value.map(str::trim), Some("1" | "true" | "yes" | "on"))
}

/// GTK's own switch for its GL support (`GDK_GL=disable`).
pub const GDK_GL_VAR: &str = "GDK_GL";

/// The `GDK_GL` value the app sets, given `VIBELIFE_GPU` and whether `GDK_GL` is set already.
///
/// Drawing in software, the window needs no GL; yet GTK opens one on the display at start to
/// list its GL visuals, which loads the system's GL driver (Mesa's with LLVM: 38 MB of the
/// process in the tray, docs/performance.md). `disable` keeps it out. A `GDK_GL` the person set
/// is theirs; with `VIBELIFE_GPU=1` GL stays available.
pub fn gdk_gl(gpu: Option<&str>, gdk_gl_set: bool) -> Option<&'static str> {
    (!gpu_requested(gpu) && !gdk_gl_set).then_some("disable")
}

/// Sets `GDK_GL` for this process per [`gdk_gl`]. Call first thing in `main`, before any
/// thread exists and before GTK starts.
pub fn apply_gdk_gl() {
    if !cfg!(target_os = "linux") {
        return;
    }
    let gpu = std::env::var(GPU_VAR).ok();
    if let Some(value) = gdk_gl(gpu.as_deref(), std::env::var_os(GDK_GL_VAR).is_some()) {
        // SAFETY: called at the top of `main`, before the app starts any thread (nothing else
        // reads or writes the environment concurrently), as `set_var` requires.
        #[allow(unsafe_code)]
        unsafe {
            std::env::set_var(GDK_GL_VAR, value);
        }
    }
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
    fn gtk_gl_is_kept_out_unless_gl_is_asked_for_or_gdk_gl_is_set() {
        assert_eq!(gdk_gl(None, false), Some("disable"));
        assert_eq!(gdk_gl(Some("0"), false), Some("disable"));
        assert_eq!(gdk_gl(Some("1"), false), None, "VIBELIFE_GPU=1 keeps GL");
        assert_eq!(gdk_gl(None, true), None, "the person's own GDK_GL stays");
    }

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
