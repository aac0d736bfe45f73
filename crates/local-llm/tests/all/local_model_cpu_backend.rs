//! llama.cpp's CPU backend chosen at run time (docs/local-model.md#cpu-support): the module
//! loaded is one this CPU can run and uses its fast instruction sets, the build put the
//! modules and shared libraries beside the binaries, and a folder without modules gives the
//! error a model load reports.

use std::path::{Path, PathBuf};

use vibe_local_llm::cpu_backend::{is_cpu_module, module_dirs, search_dirs, search_dirs_from};

use crate::support::{answer, greedy, open};

/// ggml's feature names of the x86 instruction sets, and whether this CPU has each.
#[cfg(target_arch = "x86_64")]
fn cpu_has(feature: &str) -> Option<bool> {
    Some(match feature {
        "SSE3" => std::arch::is_x86_feature_detected!("sse3"),
        "SSSE3" => std::arch::is_x86_feature_detected!("ssse3"),
        "AVX" => std::arch::is_x86_feature_detected!("avx"),
        "AVX2" => std::arch::is_x86_feature_detected!("avx2"),
        "F16C" => std::arch::is_x86_feature_detected!("f16c"),
        "FMA" => std::arch::is_x86_feature_detected!("fma"),
        "BMI2" => std::arch::is_x86_feature_detected!("bmi2"),
        "AVX512" => std::arch::is_x86_feature_detected!("avx512f"),
        "AVX512_VBMI" => std::arch::is_x86_feature_detected!("avx512vbmi"),
        "AVX512_VNNI" => std::arch::is_x86_feature_detected!("avx512vnni"),
        "AVX512_BF16" => std::arch::is_x86_feature_detected!("avx512bf16"),
        _ => return None,
    })
}

#[tokio::test]
async fn local_model_runs_on_the_cpu_backend_module_best_for_this_cpu() {
    let model = open("q8_0");
    let info = model.info().await.unwrap();
    let cpu = &info.cpu_backend;
    let file = cpu.module.file_name().and_then(|n| n.to_str()).unwrap_or_default();
    assert!(is_cpu_module(file) && cpu.module.is_file(), "{cpu:?}");
    assert!(file.contains(&cpu.variant) && cpu.variant != "unknown", "{cpu:?}");
    assert!(search_dirs().iter().any(|d| cpu.module.starts_with(d)), "{cpu:?}");
    // Never llama.cpp's AMX kernels: they die with SIGILL where a CPU reports AMX that the
    // system cannot run (docs/local-model.md#cpu-support).
    assert!(cpu.variant != "sapphirerapids" && !cpu.features.iter().any(|f| f.starts_with("AMX")));
    #[cfg(target_arch = "x86_64")]
    {
        // Never an instruction set this CPU lacks (that would be SIGILL) ...
        for feature in &cpu.features {
            assert_ne!(cpu_has(feature), Some(false), "{feature} in {cpu:?}");
        }
        // ... and the fast kernels where the CPU has them (the baseline build had none).
        for fast in ["AVX2", "FMA", "F16C", "AVX512"] {
            if cpu_has(fast) == Some(true) {
                assert!(cpu.features.iter().any(|f| f == fast), "{fast} unused: {cpu:?}");
            }
        }
    }
    assert_eq!(
        answer(&model, greedy("hello", 2)).await.unwrap().usage.unwrap().completion_tokens,
        2
    );
}

#[test]
fn local_model_libraries_and_cpu_modules_sit_beside_the_binaries() {
    // This test runs from <target>/<profile>/deps; the binaries (vibe, vibelife) sit in
    // <target>/<profile>, where the build copies the engine's libraries.
    let exe = std::env::current_exe().unwrap();
    let profile_dir = exe.parent().and_then(|d| d.parent()).unwrap().to_path_buf();
    let names: Vec<String> = std::fs::read_dir(&profile_dir)
        .unwrap()
        .flatten()
        .filter(|e| e.path().exists())
        .filter_map(|e| e.file_name().to_str().map(str::to_string))
        .collect();
    let modules = names.iter().filter(|n| is_cpu_module(n)).count();
    assert!(modules >= 1, "no CPU backend module in {}: {names:?}", profile_dir.display());
    let found = module_dirs(std::slice::from_ref(&profile_dir)).unwrap();
    assert_eq!(found, std::slice::from_ref(&profile_dir));
    #[cfg(target_os = "linux")]
    for lib in ["libllama.so", "libggml.so", "libggml-base.so"] {
        // The SONAME the binaries load (libllama.so.0) and the unversioned link resolve there.
        assert!(
            names.iter().any(|n| n.starts_with(&format!("{lib}.")))
                && profile_dir.join(lib).exists(),
            "{lib} missing or dangling in {}: {names:?}",
            profile_dir.display()
        );
    }
}

#[test]
fn local_model_without_cpu_modules_the_error_says_what_is_missing_and_where_it_looked() {
    let empty = tempfile::tempdir().unwrap();
    let other = PathBuf::from("/nowhere/at/all");
    let err = module_dirs(&[empty.path().to_path_buf(), other.clone()]).unwrap_err();
    assert!(err.contains("ggml-cpu-") && err.contains("CPU backend"), "{err}");
    assert!(err.contains(&empty.path().display().to_string()), "{err}");
    assert!(err.contains(&other.display().to_string()), "{err}");
    assert!(err.contains("reinstall") && err.contains("docs/local-model.md"), "{err}");
}

#[test]
fn local_model_an_installed_binary_finds_the_modules_in_the_package_library_folder() {
    // /usr/bin/vibe of the .deb/.rpm: the modules sit in /usr/lib/vibelife (docs/packaging.md),
    // searched right after the executable's own folder and before the build machine's folder.
    let dirs = search_dirs_from(Some(Path::new("/usr/bin")), Some("/build/out/lib"));
    let expected = ["/usr/bin", "/usr/bin/../lib/vibelife", "/build/out/lib"];
    assert_eq!(dirs, expected.map(PathBuf::from));
    // A packaged module folder is found like the build's own.
    let root = tempfile::tempdir().unwrap();
    let (bin, lib) = (root.path().join("bin"), root.path().join("lib/vibelife"));
    std::fs::create_dir_all(&bin).unwrap();
    std::fs::create_dir_all(&lib).unwrap();
    std::fs::write(
        lib.join(format!(
            "{}ggml-cpu-x64{}",
            std::env::consts::DLL_PREFIX,
            std::env::consts::DLL_SUFFIX
        )),
        b"",
    )
    .unwrap();
    let found = module_dirs(&search_dirs_from(Some(bin.as_path()), None)).unwrap();
    assert_eq!(found, [bin.join("../lib/vibelife")]);
}
