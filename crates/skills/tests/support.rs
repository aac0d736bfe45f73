//! Helpers: writing skill folders and opening registries over temp roots.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use vibe_skills::{Registry, RegistryConfig};

pub fn write(root: &Path, rel: &str, text: &str) {
    let p = root.join(rel);
    std::fs::create_dir_all(p.parent().unwrap()).unwrap();
    std::fs::write(p, text).unwrap();
}

pub fn skill_md(name: &str, description: &str) -> String {
    format!(
        "---\nname: {name}\ndescription: {description}\n---\n# {name}\n\nInstructions for {name}.\n"
    )
}

pub fn add_skill(root: &Path, name: &str, description: &str) -> PathBuf {
    write(root, &format!("{name}/SKILL.md"), &skill_md(name, description));
    root.join(name)
}

pub fn open(project: Option<&Path>, user: Option<&Path>, builtin: Option<&Path>) -> Registry {
    Registry::open(RegistryConfig {
        project: project.map(Path::to_path_buf),
        user: user.map(Path::to_path_buf),
        builtin: builtin.map(Path::to_path_buf),
        ..RegistryConfig::default()
    })
}

/// Poll `cond` until it holds or a generous deadline passes (no timing assertions).
pub fn eventually(what: &str, mut cond: impl FnMut() -> bool) {
    let deadline = Instant::now() + Duration::from_secs(20);
    while Instant::now() < deadline {
        if cond() {
            return;
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    panic!("timed out waiting for: {what}");
}
