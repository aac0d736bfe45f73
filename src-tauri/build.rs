//! Tauri's build step, pointed at the repository's top-level `tauri.conf.json` and
//! `capabilities/`. A capabilities folder the build does not find yields an app with no
//! capabilities and no warning, so the pattern is checked to match a file. The embedded UI
//! (`ui/dist`) is declared as an input so a rebuilt UI rebuilds the app. With the embedded
//! engine (feature `local-llm`), the app finds llama.cpp's shared libraries in its own folder
//! or in the installed packages' private folder (an rpath of `$ORIGIN:$ORIGIN/../lib/vibelife`,
//! i.e. `/usr/lib/vibelife` for `/usr/bin/vibelife`; docs/local-model.md#cpu-support,
//! docs/packaging.md).

fn main() {
    // With the UI inside (feature `custom-protocol`), `generate_context!` embeds ui/dist at
    // compile time; cargo does not know that, so a rebuilt UI would leave a stale app behind.
    if std::env::var_os("CARGO_FEATURE_CUSTOM_PROTOCOL").is_some() {
        println!("cargo:rerun-if-changed=../ui/dist");
    }
    if std::env::var_os("CARGO_FEATURE_LOCAL_LLM").is_some() {
        match std::env::var("CARGO_CFG_TARGET_OS").as_deref() {
            // DT_RPATH (--disable-new-dtags): it also applies to the libraries' own
            // dependencies (libllama → libggml → libggml-base).
            Ok("linux") => {
                println!(
                    "cargo:rustc-link-arg-bins=-Wl,--disable-new-dtags,-rpath,$ORIGIN:$ORIGIN/../lib/vibelife"
                )
            }
            Ok("macos") => println!(
                "cargo:rustc-link-arg-bins=-Wl,-rpath,@executable_path,-rpath,@executable_path/../Frameworks"
            ),
            _ => {}
        }
    }
    let caps = std::path::Path::new("../capabilities/default.json");
    if !caps.is_file() {
        panic!("capabilities/default.json not found beside tauri.conf.json");
    }
    tauri_build::try_build(
        tauri_build::Attributes::new()
            .config_path("../tauri.conf.json")
            .capabilities_path_pattern("../capabilities/**/*"),
    )
    .unwrap_or_else(|e| panic!("tauri build step failed: {e:#}"));
}
