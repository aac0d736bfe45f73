//! llama.cpp's CPU backend, chosen at run time: ggml is built with one CPU backend module per
//! CPU generation (`libggml-cpu-<variant>.so`: x64, sse42, haswell, skylakex, icelake, …; the
//! `dynamic-backends` feature of `llama-cpp-2`), and ggml loads the best one this CPU can run.
//! This module owns finding the folder that holds the modules (beside the executable in the
//! shipped app, the build's own folder in development and tests), loading them once, and
//! saying which variant was chosen. It does not load models or touch settings.
//!
//! The folders, in order (docs/local-model.md#cpu-support): the running executable's own
//! folder (where the build copies the modules next to `vibe` and `vibelife`), the installed
//! packages' private library folder `<exe dir>/../lib/vibelife` (`/usr/bin/vibe` →
//! `/usr/lib/vibelife`, docs/packaging.md), then the folder the build wrote them to
//! (`llama_cpp_sys_2::BACKENDS_DIR`, which exists only on the machine that built this binary).

// The few calls into ggml's C API that `llama-cpp-2` does not wrap (loading modules from a
// folder, the CPU device's features). Each `unsafe` block says why it is sound.
#![allow(unsafe_code)]

use std::ffi::{CStr, CString, c_void};
use std::path::{Path, PathBuf};

use llama_cpp_2::{LlamaBackendDeviceType, list_llama_ggml_backend_devices};

/// The CPU backend in use.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CpuBackend {
    /// The module's variant (`haswell`, `icelake`, `x64`, …), from its file name.
    pub variant: String,
    /// The instruction sets the module was compiled for and uses (`AVX2`, `FMA`, …), as ggml
    /// reports them.
    pub features: Vec<String>,
    /// The module file.
    pub module: PathBuf,
}

/// The file name of a CPU backend module starts with this (`libggml-cpu-` on Linux/macOS).
fn module_prefix() -> String {
    format!("{}ggml-cpu-", std::env::consts::DLL_PREFIX)
}

/// Whether `name` is a CPU backend module's file name.
pub fn is_cpu_module(name: &str) -> bool {
    name.starts_with(&module_prefix()) && name.ends_with(std::env::consts::DLL_SUFFIX)
}

/// The installed packages' private library folder, relative to the executable's folder
/// (`/usr/bin` → `/usr/lib/vibelife`); the binaries' rpath names it too (build.rs).
pub const PACKAGE_LIB_DIR: &str = "../lib/vibelife";

/// The folders searched for CPU backend modules, in order.
pub fn search_dirs() -> Vec<PathBuf> {
    let exe_dir = std::env::current_exe().ok().and_then(|e| e.parent().map(Path::to_path_buf));
    search_dirs_from(exe_dir.as_deref(), llama_cpp_sys_2::BACKENDS_DIR)
}

/// [`search_dirs`] for an executable in `exe_dir` built with its modules in `build_dir`.
pub fn search_dirs_from(exe_dir: Option<&Path>, build_dir: Option<&str>) -> Vec<PathBuf> {
    let mut dirs = Vec::new();
    if let Some(dir) = exe_dir {
        dirs.push(dir.to_path_buf());
        dirs.push(dir.join(PACKAGE_LIB_DIR));
    }
    if let Some(dir) = build_dir {
        dirs.push(PathBuf::from(dir));
    }
    dirs
}

/// The folders of `dirs` that hold at least one CPU backend module, in order; when none
/// does, the error a model load reports (what is missing, every folder searched, what to do).
pub fn module_dirs(dirs: &[PathBuf]) -> Result<Vec<PathBuf>, String> {
    let found: Vec<PathBuf> = dirs
        .iter()
        .filter(|dir| {
            std::fs::read_dir(dir).is_ok_and(|entries| {
                entries.flatten().any(|e| e.file_name().to_str().is_some_and(is_cpu_module))
            })
        })
        .cloned()
        .collect();
    if found.is_empty() {
        return Err(missing(dirs, "none was found"));
    }
    Ok(found)
}

fn missing(dirs: &[PathBuf], what: &str) -> String {
    let searched: Vec<String> = dirs.iter().map(|d| d.display().to_string()).collect();
    format!(
        "llama.cpp's CPU backend ({}*{}) could not be loaded: {what} (searched {}). The engine's libraries must sit beside the program or in its package's library folder: reinstall VibeLife, or rebuild it (docs/local-model.md#cpu-support)",
        module_prefix(),
        std::env::consts::DLL_SUFFIX,
        if searched.is_empty() { "no folder".to_string() } else { searched.join(", ") }
    )
}

/// Variants never used: those whose kernels use AMX tiles (llama.cpp's x86 list,
/// ggml/src/CMakeLists.txt). Only Xeon server CPUs have AMX, and a CPU can report it where its
/// kernels still die with SIGILL: on the project's build machine (a virtual machine that
/// reports AMX and runs a plain AMX test program) llama.cpp's AMX kernels crash, in this
/// engine and in llama.cpp's own `llama-bench`. The next variant (AVX-512 with VNNI and BF16)
/// is used there instead.
const UNUSED_VARIANTS: &[&str] = &["sapphirerapids"];

/// Loads the best CPU backend module for this CPU from the first folder of [`search_dirs`]
/// that has one; once per process (the caller keeps the result). ggml's own choice (the
/// highest `ggml_backend_score` of the folder's modules), except [`UNUSED_VARIANTS`].
pub(crate) fn load() -> Result<CpuBackend, String> {
    if let Some(backend) = loaded() {
        return Ok(backend);
    }
    let dirs = search_dirs();
    for dir in module_dirs(&dirs)? {
        let Some(best) = best_module(&dir) else {
            continue;
        };
        let Some(path) = best.to_str().and_then(|d| CString::new(d).ok()) else {
            continue;
        };
        // SAFETY: `path` is a valid NUL-terminated string that outlives the call; ggml copies
        // what it keeps. Loading happens once, before any model or context exists.
        let reg = unsafe { llama_cpp_sys_2::ggml_backend_load(path.as_ptr()) };
        if reg.is_null() {
            continue;
        }
        if let Some(backend) = loaded() {
            tracing::info!(
                variant = %backend.variant,
                features = %backend.features.join(" "),
                module = %backend.module.display(),
                "llama.cpp CPU backend loaded"
            );
            return Ok(backend);
        }
    }
    Err(missing(&dirs, "no module in these folders loads on this CPU"))
}

/// The variant part of a module's file name (`haswell` of `libggml-cpu-haswell.so`).
fn variant_of(module: &Path) -> &str {
    module
        .file_name()
        .and_then(|n| n.to_str())
        .and_then(|n| n.strip_prefix(&module_prefix()))
        .and_then(|n| n.strip_suffix(std::env::consts::DLL_SUFFIX))
        .unwrap_or("unknown")
}

/// The module of `dir` with the highest score for this CPU (0 = cannot run here).
fn best_module(dir: &Path) -> Option<PathBuf> {
    let mut modules: Vec<PathBuf> = std::fs::read_dir(dir)
        .ok()?
        .flatten()
        .filter(|e| e.file_name().to_str().is_some_and(is_cpu_module))
        .map(|e| e.path())
        .collect();
    modules.sort();
    let mut best: Option<(i32, PathBuf)> = None;
    for module in modules {
        let Some(score) = score(&module) else {
            continue;
        };
        let variant = variant_of(&module);
        tracing::debug!(variant, score, "llama.cpp CPU backend module");
        if score <= 0
            || UNUSED_VARIANTS.contains(&variant)
            || best.as_ref().is_some_and(|(b, _)| *b >= score)
        {
            continue;
        }
        best = Some((score, module));
    }
    best.map(|(_, module)| module)
}

/// The module's `ggml_backend_score()`: how well it fits this CPU, 0 when it cannot run here.
/// `None` when it does not load or has no score.
#[cfg(unix)]
fn score(module: &Path) -> Option<i32> {
    use std::os::unix::ffi::OsStrExt as _;
    let path = CString::new(module.as_os_str().as_bytes()).ok()?;
    // SAFETY: dlopen of one of the build's own CPU modules (as ggml's loader does): its
    // constructors only set up static tables. The score function takes no argument and only
    // reads CPUID (it is compiled without the variant's instruction sets, so it runs on any
    // CPU); its type is ggml's `ggml_backend_score_t`. The handle is closed after the call.
    unsafe {
        let handle = libc::dlopen(path.as_ptr(), libc::RTLD_NOW | libc::RTLD_LOCAL);
        if handle.is_null() {
            return None;
        }
        let symbol = libc::dlsym(handle, c"ggml_backend_score".as_ptr());
        let score = (!symbol.is_null()).then(|| {
            let score_fn =
                std::mem::transmute::<*mut c_void, unsafe extern "C" fn() -> i32>(symbol);
            score_fn()
        });
        libc::dlclose(handle);
        score
    }
}

#[cfg(not(unix))]
fn score(_module: &Path) -> Option<i32> {
    Some(1)
}

/// The CPU backend registered with ggml, if any.
fn loaded() -> Option<CpuBackend> {
    let devices = list_llama_ggml_backend_devices();
    if !devices.iter().any(|d| d.device_type == LlamaBackendDeviceType::Cpu) {
        return None;
    }
    // SAFETY: a CPU device is registered (checked above), so this returns a valid device whose
    // registry lives as long as the process (ggml never unloads backends it was not asked to).
    let reg = unsafe {
        let dev = llama_cpp_sys_2::ggml_backend_dev_by_type(
            llama_cpp_sys_2::GGML_BACKEND_DEVICE_TYPE_CPU,
        );
        if dev.is_null() {
            return None;
        }
        llama_cpp_sys_2::ggml_backend_dev_backend_reg(dev)
    };
    if reg.is_null() {
        return None;
    }
    // SAFETY: `reg` is valid (above) and the name a NUL-terminated literal.
    let get_features = unsafe {
        llama_cpp_sys_2::ggml_backend_reg_get_proc_address(
            reg,
            c"ggml_backend_get_features".as_ptr(),
        )
    };
    let features = if get_features.is_null() { Vec::new() } else { features(reg, get_features) };
    let module = module_file(get_features).unwrap_or_default();
    let variant = variant_of(&module).to_string();
    Some(CpuBackend { variant, features, module })
}

/// The instruction sets the CPU backend reports (`{name, "1"}` pairs up to a NULL name).
fn features(reg: llama_cpp_sys_2::ggml_backend_reg_t, get: *mut c_void) -> Vec<String> {
    type GetFeatures = unsafe extern "C" fn(
        llama_cpp_sys_2::ggml_backend_reg_t,
    ) -> *mut llama_cpp_sys_2::ggml_backend_feature;
    // SAFETY: ggml returned this pointer for "ggml_backend_get_features", whose C type is
    // `ggml_backend_get_features_t` (= `GetFeatures`). The array it returns is static in the
    // module and ends with an entry whose name is NULL; its strings are static literals.
    unsafe {
        let get: GetFeatures = std::mem::transmute::<*mut c_void, GetFeatures>(get);
        let mut list = Vec::new();
        let mut entry = get(reg);
        while !entry.is_null() && !(*entry).name.is_null() {
            let on = (*entry).value.is_null() || CStr::from_ptr((*entry).value).to_bytes() != b"0";
            if on {
                list.push(CStr::from_ptr((*entry).name).to_string_lossy().into_owned());
            }
            entry = entry.add(1);
        }
        list
    }
}

/// The file of the shared object that holds `symbol` (the loaded module).
#[cfg(unix)]
fn module_file(symbol: *mut c_void) -> Option<PathBuf> {
    use std::os::unix::ffi::OsStrExt as _;
    if symbol.is_null() {
        return None;
    }
    // SAFETY: dladdr only reads the loader's tables; `info` is plain data it fills in, and
    // `dli_fname` (when set) points to the loader's own NUL-terminated copy of the path.
    unsafe {
        let mut info: libc::Dl_info = std::mem::zeroed();
        if libc::dladdr(symbol.cast_const(), &raw mut info) == 0 || info.dli_fname.is_null() {
            return None;
        }
        let name = CStr::from_ptr(info.dli_fname).to_bytes();
        Some(PathBuf::from(std::ffi::OsStr::from_bytes(name)))
    }
}

#[cfg(not(unix))]
fn module_file(_symbol: *mut c_void) -> Option<PathBuf> {
    None
}
