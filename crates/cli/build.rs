//! With the embedded engine (feature `local-llm`), `vibe` finds llama.cpp's shared libraries
//! in its own folder (an rpath of `$ORIGIN`), where vibe-local-llm's build puts them, so it
//! runs from `target/<profile>/` or an unpacked release without LD_LIBRARY_PATH, or in the
//! installed packages' private folder (`$ORIGIN/../lib/vibelife`: `/usr/lib/vibelife`;
//! `@executable_path/../Frameworks` in a macOS app bundle; docs/local-model.md#cpu-support,
//! docs/packaging.md). Nothing else.

fn main() {
    println!("cargo:rerun-if-changed=build.rs");
    if std::env::var_os("CARGO_FEATURE_LOCAL_LLM").is_none() {
        return;
    }
    match std::env::var("CARGO_CFG_TARGET_OS").as_deref() {
        // DT_RPATH rather than DT_RUNPATH (--disable-new-dtags): it also applies to the
        // libraries' own dependencies (libllama → libggml → libggml-base).
        Ok("linux") => println!(
            "cargo:rustc-link-arg-bins=-Wl,--disable-new-dtags,-rpath,$ORIGIN:$ORIGIN/../lib/vibelife"
        ),
        Ok("macos") => println!(
            "cargo:rustc-link-arg-bins=-Wl,-rpath,@executable_path,-rpath,@executable_path/../Frameworks"
        ),
        _ => {}
    }
}
