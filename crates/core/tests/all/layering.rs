//! The workspace's layering as a test (docs/architecture.md, "Crates"): read from
//! `cargo metadata`, every workspace crate depends only on crates of a lower layer, the front
//! ends (the CLI and the desktop shell) on the app crate and the wire crate only, and no
//! crate holds more than a fifth of the workspace's Rust lines.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;

use serde_json::Value;

/// The layers, lowest first: a crate's (normal and build) dependencies on workspace crates
/// are all in a lower layer.
const LAYERS: &[&[&str]] = &[
    &["vibe-wire", "vibe-jsonstream", "vibe-charts", "vibe-sandbox"],
    &["vibe-store", "vibe-skills", "vibe-llm", "vibe-models", "vibe-test-support", "vibe-mcp"],
    &["vibe-local-llm", "vibe-context", "vibe-protocol", "vibe-runlog", "vibe-sync"],
    &["vibe-agent"],
    &["vibe-core"],
    &["vibe-cli", "vibelife"],
];

/// The front ends and the only workspace crates their code may use.
const FRONT_ENDS: &[&str] = &["vibe-cli", "vibelife"];
const FRONT_END_DEPS: &[&str] = &["vibe-core", "vibe-wire"];
/// What their tests may use besides: the test support crate, and lower crates to make
/// fixtures (a data folder's rows as another process or an earlier version left them, a
/// real chart to render). Dev-dependencies never reach the shipped binaries.
const FRONT_END_DEV_DEPS: &[&str] = &["vibe-test-support", "vibe-store", "vibe-charts", "vibe-llm"];

pub(crate) struct Crate {
    pub(crate) dir: PathBuf,
    /// Workspace crates it depends on: (name, kind), kind `None` (normal), "dev" or "build".
    deps: Vec<(String, Option<String>)>,
}

pub(crate) fn workspace() -> BTreeMap<String, Crate> {
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    let output = Command::new(cargo)
        .args(["metadata", "--format-version", "1", "--no-deps"])
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .expect("cargo metadata runs");
    assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
    let meta: Value = serde_json::from_slice(&output.stdout).unwrap();
    let packages = meta["packages"].as_array().unwrap();
    let names: Vec<&str> = packages.iter().map(|p| p["name"].as_str().unwrap()).collect();
    packages
        .iter()
        .map(|p| {
            let manifest = Path::new(p["manifest_path"].as_str().unwrap());
            let deps = p["dependencies"]
                .as_array()
                .unwrap()
                .iter()
                .filter(|d| names.contains(&d["name"].as_str().unwrap()))
                .map(|d| {
                    (d["name"].as_str().unwrap().to_string(), d["kind"].as_str().map(String::from))
                })
                .collect();
            let name = p["name"].as_str().unwrap().to_string();
            (name, Crate { dir: manifest.parent().unwrap().to_path_buf(), deps })
        })
        .collect()
}

fn layer(name: &str) -> usize {
    LAYERS
        .iter()
        .position(|l| l.contains(&name))
        .unwrap_or_else(|| panic!("{name} is in no layer: add it to LAYERS in {}", file!()))
}

#[test]
fn every_crate_depends_only_on_lower_layers() {
    let mut upward = Vec::new();
    for (name, krate) in &workspace() {
        for (dep, kind) in &krate.deps {
            if kind.as_deref() != Some("dev") && layer(dep) >= layer(name) {
                upward.push(format!("{name} -> {dep}"));
            }
        }
    }
    assert!(upward.is_empty(), "dependencies not on a lower layer: {upward:?}");
}

#[test]
fn front_ends_use_only_the_app_and_wire_crates() {
    let crates = workspace();
    let mut stray = Vec::new();
    for front_end in FRONT_ENDS {
        let krate = crates.get(*front_end).unwrap_or_else(|| panic!("no crate {front_end}"));
        for (dep, kind) in &krate.deps {
            let allowed = match kind.as_deref() {
                Some("dev") => {
                    FRONT_END_DEPS.contains(&dep.as_str())
                        || FRONT_END_DEV_DEPS.contains(&dep.as_str())
                }
                _ => FRONT_END_DEPS.contains(&dep.as_str()),
            };
            if !allowed {
                stray.push(format!(
                    "{front_end} -> {dep} ({})",
                    kind.as_deref().unwrap_or("normal")
                ));
            }
        }
    }
    assert!(stray.is_empty(), "front ends go through vibe_core::app::App: {stray:?}");
}

#[test]
fn no_crate_holds_more_than_a_fifth_of_the_rust_code() {
    let lines: BTreeMap<String, usize> =
        workspace().into_iter().map(|(name, krate)| (name, rust_lines(&krate.dir))).collect();
    let total: usize = lines.values().sum();
    let over: Vec<_> = lines.iter().filter(|(_, n)| **n * 5 > total).collect();
    assert!(over.is_empty(), "over a fifth of {total} lines: {over:?}");
}

/// Lines of the `.rs` files under `dir` (sources, tests, benches), build output left out.
fn rust_lines(dir: &Path) -> usize {
    let mut total = 0;
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        let name = path.file_name().unwrap_or_default();
        if path.is_dir() {
            if name != "target" && name != "node_modules" {
                total += rust_lines(&path);
            }
        } else if path.extension().is_some_and(|e| e == "rs") {
            total += std::fs::read_to_string(&path).unwrap().lines().count();
        }
    }
    total
}
