//! Helpers: writing skill folders and opening registries over temp roots.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::path::{Path, PathBuf};

use vibe_skills::{Registry, RegistryConfig};

pub use vibe_test_support::{eventually, write_file as write};

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
