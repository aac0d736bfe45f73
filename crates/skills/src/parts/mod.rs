//! The optional parts of a skill folder, each parsed from text only when asked for:
//! `rules/*.md`, `scenarios/*.md`, `cases/*.md`, `tools.yaml`, `protocols/*.yaml`,
//! `prompts.yaml`. Each parser
//! returns the value (when it has no error) and its findings. Reading files and caching is
//! `loader`'s job; what the agent does with a part is not this crate's.

pub(crate) mod cases;
mod md_part;
pub(crate) mod prompts;
pub(crate) mod protocols;
pub(crate) mod rules;
pub(crate) mod scenarios;
pub(crate) mod tools;
pub(crate) mod tools_schema;

use std::path::{Path, PathBuf};

use crate::problem::Problem;

/// The parts a skill folder may hold, with where they live.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum PartKind {
    Rules,
    Scenarios,
    Cases,
    Tools,
    Protocols,
    /// `prompts.yaml`: daily journaling prompts and conversation starters.
    Prompts,
}

impl PartKind {
    pub const ALL: [PartKind; 6] = [
        PartKind::Rules,
        PartKind::Scenarios,
        PartKind::Cases,
        PartKind::Tools,
        PartKind::Protocols,
        PartKind::Prompts,
    ];

    /// Folder (or, for a single-file part, file) name inside the skill folder.
    pub fn file_name(self) -> &'static str {
        match self {
            Self::Rules => "rules",
            Self::Scenarios => "scenarios",
            Self::Cases => "cases",
            Self::Tools => "tools.yaml",
            Self::Protocols => "protocols",
            Self::Prompts => "prompts.yaml",
        }
    }

    /// Whether the part is one file (`tools.yaml`, `prompts.yaml`) rather than a folder.
    pub(crate) fn is_file(self) -> bool {
        matches!(self, Self::Tools | Self::Prompts)
    }

    /// File extensions of the part's files (for folder parts).
    pub(crate) fn extensions(self) -> &'static [&'static str] {
        match self {
            Self::Rules | Self::Scenarios | Self::Cases => &["md"],
            Self::Tools | Self::Prompts => &[],
            Self::Protocols => &["yaml", "yml"],
        }
    }

    /// The part a file inside a skill folder belongs to, if any.
    pub(crate) fn of_relative(rel: &Path) -> Option<PartKind> {
        let mut comps = rel.components();
        let first = comps.next()?.as_os_str().to_str()?;
        let rest: PathBuf = comps.collect();
        if rest.as_os_str().is_empty() {
            return Self::ALL.into_iter().find(|k| k.is_file() && k.file_name() == first);
        }
        let kind = Self::ALL.into_iter().find(|k| !k.is_file() && k.file_name() == first)?;
        let ext = rest.extension().and_then(|e| e.to_str())?;
        (rest.components().count() == 1 && kind.extensions().contains(&ext)).then_some(kind)
    }
}

/// Files of a folder part, sorted by name (hidden files skipped). A missing folder is empty.
pub(crate) fn part_files(skill_dir: &Path, kind: PartKind) -> Vec<PathBuf> {
    let dir = skill_dir.join(kind.file_name());
    if kind.is_file() {
        return if dir.is_file() { vec![dir] } else { Vec::new() };
    }
    let Ok(entries) = std::fs::read_dir(&dir) else { return Vec::new() };
    let mut files: Vec<PathBuf> = entries
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| {
            p.is_file()
                && PartKind::of_relative(p.strip_prefix(skill_dir).unwrap_or(p)) == Some(kind)
        })
        .filter(|p| !p.file_name().and_then(|n| n.to_str()).is_some_and(|n| n.starts_with('.')))
        .collect();
    files.sort();
    files
}

/// The id of a part file: its name without extension.
pub(crate) fn stem(path: &Path) -> String {
    path.file_stem().and_then(|s| s.to_str()).unwrap_or_default().to_string()
}

/// A parse result: the value when there is no error, and all findings.
pub(crate) type Parsed<T> = (Option<T>, Vec<Problem>);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn files_are_assigned_to_their_part() {
        let of = |p: &str| PartKind::of_relative(Path::new(p));
        assert_eq!(of("tools.yaml"), Some(PartKind::Tools));
        assert_eq!(of("prompts.yaml"), Some(PartKind::Prompts));
        assert_eq!(of("prompts/a.yaml"), None);
        assert_eq!(of("cases/a.md"), Some(PartKind::Cases));
        assert_eq!(of("protocols/reset.yml"), Some(PartKind::Protocols));
        assert_eq!(of("cases/sub/a.md"), None);
        assert_eq!(of("cases/a.txt"), None);
        assert_eq!(of("references/a.md"), None);
        assert_eq!(of("SKILL.md"), None);
    }
}
