//! Where skills come from: the three roots in precedence order (project > user > built-in),
//! what the `skills` settings section (a wire type, [`SkillsSettings`]) gives them, and how the built-in folder is located for an installed
//! binary. Scanning a root is `discover`/`scan`.

use std::path::{Path, PathBuf};

use serde::Serialize;
pub use vibe_wire::settings::SkillsSettings;

/// Resource reads are capped at this many bytes unless configured otherwise.
pub const DEFAULT_MAX_RESOURCE_BYTES: u64 = 64 * 1024;

/// Environment variable naming the built-in skills folder (highest priority for that root).
pub const BUILTIN_DIR_ENV: &str = "VIBE_BUILTIN_SKILLS_DIR";

/// A kind of root; the order of the variants is the precedence (first wins).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum RootKind {
    /// An extra folder from settings (`skills.extra_dir`) or `--skills-dir`.
    Project,
    /// `<data dir>/skills`: the person's own skills.
    User,
    /// The skills shipped with the app.
    Builtin,
}

impl RootKind {
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Project => "project",
            Self::User => "user",
            Self::Builtin => "builtin",
        }
    }
}

/// One root folder.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Root {
    pub kind: RootKind,
    pub path: PathBuf,
}

/// What a registry is opened with.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RegistryConfig {
    pub project: Option<PathBuf>,
    pub user: Option<PathBuf>,
    pub builtin: Option<PathBuf>,
    /// Largest resource returned whole; longer ones are truncated with a marker.
    pub max_resource_bytes: u64,
}

impl Default for RegistryConfig {
    fn default() -> Self {
        Self {
            project: None,
            user: None,
            builtin: None,
            max_resource_bytes: DEFAULT_MAX_RESOURCE_BYTES,
        }
    }
}

impl RegistryConfig {
    /// The usual roots for a data dir: project from `project_override` (e.g. `--skills-dir`) or
    /// the settings, user `<data_dir>/skills`, built-in from [`builtin_dir`].
    pub fn for_data_dir(
        data_dir: &Path,
        settings: &SkillsSettings,
        project_override: Option<PathBuf>,
    ) -> Self {
        let project =
            project_override.or_else(|| settings.extra_dir.as_ref().map(|d| data_dir.join(d)));
        Self {
            project,
            user: Some(data_dir.join("skills")),
            builtin: builtin_dir(),
            max_resource_bytes: settings.max_resource_bytes.unwrap_or(DEFAULT_MAX_RESOURCE_BYTES),
        }
    }

    /// The configured roots, highest precedence first.
    pub fn roots(&self) -> Vec<Root> {
        [
            (RootKind::Project, &self.project),
            (RootKind::User, &self.user),
            (RootKind::Builtin, &self.builtin),
        ]
        .into_iter()
        .filter_map(|(kind, path)| path.clone().map(|path| Root { kind, path }))
        .collect()
    }
}

/// The built-in skills folder: `$VIBE_BUILTIN_SKILLS_DIR` when set; else
/// `<exe dir>/../share/vibelife/skills` when it exists (an installed binary); else the
/// source tree's `skills/` (compile-time path, for development builds) when it exists.
pub fn builtin_dir() -> Option<PathBuf> {
    if let Some(dir) = std::env::var_os(BUILTIN_DIR_ENV).filter(|d| !d.is_empty()) {
        return Some(PathBuf::from(dir));
    }
    let installed = std::env::current_exe()
        .ok()
        .and_then(|exe| exe.parent().map(|bin| bin.join("../share/vibelife/skills")))
        .filter(|d| d.is_dir());
    installed.or_else(|| {
        let source = PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/../../skills"));
        source.is_dir().then_some(source)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn roots_come_in_precedence_order_and_settings_resolve_against_the_data_dir() {
        let settings =
            SkillsSettings { extra_dir: Some("proj".into()), max_resource_bytes: Some(10) };
        let mut config = RegistryConfig::for_data_dir(Path::new("/data"), &settings, None);
        config.builtin = Some("/app/skills".into());
        let kinds: Vec<_> = config.roots().iter().map(|r| (r.kind, r.path.clone())).collect();
        assert_eq!(
            kinds,
            vec![
                (RootKind::Project, PathBuf::from("/data/proj")),
                (RootKind::User, PathBuf::from("/data/skills")),
                (RootKind::Builtin, PathBuf::from("/app/skills")),
            ]
        );
        assert_eq!(config.max_resource_bytes, 10);
        let over = RegistryConfig::for_data_dir(Path::new("/data"), &settings, Some("/x".into()));
        assert_eq!(over.project, Some(PathBuf::from("/x")));
    }

    #[test]
    fn settings_section_deserialises_with_defaults() {
        let s: SkillsSettings = serde_json::from_value(serde_json::json!({})).unwrap();
        assert_eq!(s, SkillsSettings::default());
    }

    #[test]
    fn precedence_is_the_variant_order() {
        assert!(RootKind::Project < RootKind::User && RootKind::User < RootKind::Builtin);
    }
}
