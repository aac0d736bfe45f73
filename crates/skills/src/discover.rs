//! Finding skill folders in a root without reading any file: a folder holding `SKILL.md` is a
//! skill (its sub-folders are its own); a folder without one may group skills and is searched
//! up to [`MAX_DEPTH`] levels below the root. Hidden folders (`.git`, ...) are skipped.

use std::path::{Path, PathBuf};

use crate::problem::{Pos, Problem};

/// The file that makes a folder a skill.
pub const SKILL_FILE: &str = "SKILL.md";

/// How deep grouping folders are searched below a root.
pub(crate) const MAX_DEPTH: usize = 3;

/// Skill folders of a root, sorted, and findings about folders that look like skills but are not.
#[derive(Debug, Default)]
pub(crate) struct Discovery {
    pub dirs: Vec<PathBuf>,
    pub problems: Vec<Problem>,
}

pub(crate) fn discover(root: &Path) -> Discovery {
    let mut out = Discovery::default();
    walk(root, 1, &mut out);
    out.dirs.sort();
    out
}

/// True when `dir` holds a `SKILL.md` file.
pub(crate) fn is_skill_dir(dir: &Path) -> bool {
    dir.join(SKILL_FILE).is_file()
}

fn walk(dir: &Path, depth: usize, out: &mut Discovery) {
    let Ok(entries) = std::fs::read_dir(dir) else { return };
    for entry in entries.flatten() {
        let path = entry.path();
        let hidden = entry.file_name().to_str().is_none_or(|n| n.starts_with('.'));
        if hidden || !path.is_dir() {
            continue;
        }
        if is_skill_dir(&path) {
            out.dirs.push(path);
        } else if let Some(wrong) = misnamed_skill_file(&path) {
            out.problems.push(Problem::warning(
                &wrong,
                Pos::START,
                format!("not loaded: the file must be named exactly `{SKILL_FILE}`"),
            ));
        } else if depth < MAX_DEPTH {
            walk(&path, depth + 1, out);
        }
    }
}

/// A `skill.md` / `Skill.md` that was probably meant to be `SKILL.md`.
fn misnamed_skill_file(dir: &Path) -> Option<PathBuf> {
    std::fs::read_dir(dir).ok()?.flatten().map(|e| e.path()).find(|p| {
        p.is_file()
            && p.file_name()
                .and_then(|n| n.to_str())
                .is_some_and(|n| n.eq_ignore_ascii_case(SKILL_FILE))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn touch(path: &Path) {
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, "---\n---\n").unwrap();
    }

    #[test]
    fn finds_skills_directly_and_in_grouping_folders_but_not_inside_skills() {
        let root = tempfile::tempdir().unwrap();
        let r = root.path();
        touch(&r.join("a/SKILL.md"));
        touch(&r.join("a/references/nested/SKILL.md"));
        touch(&r.join("group/b/SKILL.md"));
        touch(&r.join(".hidden/c/SKILL.md"));
        touch(&r.join("g1/g2/g3/too-deep/SKILL.md"));
        touch(&r.join("lower/skill.md"));
        let found = discover(r);
        let rel: Vec<_> =
            found.dirs.iter().map(|d| d.strip_prefix(r).unwrap().to_path_buf()).collect();
        assert_eq!(rel, vec![PathBuf::from("a"), PathBuf::from("group/b")]);
        assert_eq!(found.problems.len(), 1);
        assert!(
            found.problems[0]
                .to_string()
                .ends_with("warning: not loaded: the file must be named exactly `SKILL.md`")
        );
    }

    #[test]
    fn a_missing_root_has_no_skills() {
        assert!(discover(Path::new("/definitely/not/here")).dirs.is_empty());
    }
}
