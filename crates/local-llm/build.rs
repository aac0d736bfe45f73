//! Puts llama.cpp's shared libraries and CPU backend modules beside the binaries (with the
//! `engine` feature): the app finds its engine libraries in its own folder, so `vibe` and
//! `vibelife` run from `target/<profile>/` as they are shipped, without LD_LIBRARY_PATH
//! (docs/local-model.md#cpu-support). It only copies files llama-cpp-sys-2 built (its out dir,
//! named through `DEP_LLAMA_BACKENDS_DIR`) into the profile folder; it builds nothing.
//!
//! llama-cpp-sys-2 links the unversioned names (`libllama.so`) into the profile folder and its
//! `deps/` and `examples/`, but on Linux those are symbolic links to the versioned files the
//! binaries load (`libllama.so.0`, the SONAME), which it leaves behind; this copies the whole
//! chain into the three. Besides running the binaries, that matters to llama-cpp-sys-2 itself:
//! it skips names that exist and fails on a dangling link, i.e. its next build (another
//! package set, e.g. the desktop app's) would stop there. Files are replaced on every run, so
//! the folders never keep a library or module of an older build.

use std::path::{Path, PathBuf};

fn main() {
    println!("cargo:rerun-if-changed=build.rs");
    if std::env::var_os("CARGO_FEATURE_ENGINE").is_none() {
        return;
    }
    let Some(backends) = std::env::var_os("DEP_LLAMA_BACKENDS_DIR").map(PathBuf::from) else {
        panic!(
            "llama-cpp-sys-2 did not name its backends folder (DEP_LLAMA_BACKENDS_DIR): its `dynamic-backends` feature must be on (crates/local-llm/Cargo.toml)"
        );
    };
    println!("cargo:rerun-if-changed={}", backends.display());
    let Some(sys_out) = backends.parent() else {
        panic!("unexpected backends folder {}", backends.display());
    };
    let out_dir = PathBuf::from(std::env::var_os("OUT_DIR").unwrap_or_default());
    // OUT_DIR = <target>/<profile>/build/vibe-local-llm-<hash>/out
    let Some(profile_dir) = out_dir.ancestors().nth(3) else {
        panic!("unexpected OUT_DIR {}", out_dir.display());
    };

    let libs = sys_out.join(if cfg!(windows) { "bin" } else { "lib" });
    println!("cargo:rerun-if-changed={}", libs.display());
    let mut lib_dirs = vec![profile_dir.to_path_buf(), profile_dir.join("deps")];
    if profile_dir.join("examples").is_dir() {
        lib_dirs.push(profile_dir.join("examples"));
    }
    for entry in entries(&libs) {
        let name = entry.file_name().and_then(|n| n.to_str()).unwrap_or_default().to_string();
        let shared = name.ends_with(".dylib") || name.ends_with(".dll") || name.contains(".so");
        if shared && !name.ends_with(".a") {
            for dir in &lib_dirs {
                place(&entry, &dir.join(&name));
            }
        }
    }
    for entry in entries(&backends) {
        if let Some(name) = entry.file_name() {
            place(&entry, &profile_dir.join(name));
        }
    }
}

fn entries(dir: &Path) -> Vec<PathBuf> {
    let read = std::fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("cannot read llama.cpp's build folder {}: {e}", dir.display()));
    read.flatten().map(|e| e.path()).collect()
}

/// `dst` becomes what `src` is: the same symbolic link, or the same file (hard link, else copy).
fn place(src: &Path, dst: &Path) {
    let meta = std::fs::symlink_metadata(src)
        .unwrap_or_else(|e| panic!("cannot read {}: {e}", src.display()));
    if !meta.is_file() && !meta.file_type().is_symlink() {
        return;
    }
    if std::fs::symlink_metadata(dst).is_ok() {
        std::fs::remove_file(dst)
            .unwrap_or_else(|e| panic!("cannot replace {}: {e}", dst.display()));
    }
    #[cfg(unix)]
    if meta.file_type().is_symlink() {
        let target = std::fs::read_link(src)
            .unwrap_or_else(|e| panic!("cannot read the link {}: {e}", src.display()));
        std::os::unix::fs::symlink(&target, dst)
            .unwrap_or_else(|e| panic!("cannot link {}: {e}", dst.display()));
        return;
    }
    if std::fs::hard_link(src, dst).is_err() {
        std::fs::copy(src, dst)
            .unwrap_or_else(|e| panic!("cannot copy {} to {}: {e}", src.display(), dst.display()));
    }
}
