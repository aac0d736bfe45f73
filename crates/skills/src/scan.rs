//! Reading one skill folder for the index: its SKILL.md frontmatter only (never the body),
//! skipped when the file's fingerprint is unchanged, and keeping the last good metadata when
//! a new version is broken. Deciding precedence and shadowing is `index`.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use crate::discover::SKILL_FILE;
use crate::frontmatter::{read_head, split};
use crate::fsio::{Fingerprint, Reads, fingerprint};
use crate::meta::SkillMeta;
use crate::meta_parse::{MetaParse, parse_meta};
use crate::problem::{Pos, Problem, ProblemCode};

/// What the index knows about one skill folder.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Scanned {
    pub dir: PathBuf,
    /// The folder name (what `name` must equal).
    pub folder: String,
    /// SKILL.md's fingerprint when it was read.
    pub fingerprint: Option<Fingerprint>,
    /// The metadata when the current SKILL.md is valid.
    pub meta: Option<Arc<SkillMeta>>,
    /// When the current SKILL.md is broken: the last good metadata seen for this folder.
    pub last_good: Option<Arc<SkillMeta>>,
    /// Findings for the current SKILL.md.
    pub problems: Vec<Problem>,
    pub name_pos: Pos,
    /// Positions of the frontmatter's top-level values.
    pub positions: Vec<(String, Pos)>,
}

impl Scanned {
    /// The metadata to use: the current one, or the last good one.
    pub fn usable(&self) -> Option<&Arc<SkillMeta>> {
        self.meta.as_ref().or(self.last_good.as_ref())
    }

    pub fn skill_file(&self) -> PathBuf {
        self.dir.join(SKILL_FILE)
    }
}

/// Scan `dir`, reusing `previous` when SKILL.md is unchanged (unless `force`, used when the
/// watcher saw the file change: two saves within one timestamp tick can share a fingerprint).
pub(crate) fn scan_skill(
    dir: &Path,
    previous: Option<&Scanned>,
    force: bool,
    reads: &Reads,
) -> Scanned {
    let file = dir.join(SKILL_FILE);
    let fp = fingerprint(&file);
    if let Some(prev) = previous
        && !force
        && prev.fingerprint.is_some()
        && prev.fingerprint == fp
    {
        return prev.clone();
    }
    let folder = dir.file_name().and_then(|n| n.to_str()).unwrap_or_default().to_string();
    let parsed = read_meta(&file, &folder, reads);
    let meta = parsed.meta.map(Arc::new);
    let last_good = if meta.is_some() { None } else { previous.and_then(Scanned::usable).cloned() };
    Scanned {
        dir: dir.to_path_buf(),
        folder,
        fingerprint: fp,
        meta,
        last_good,
        problems: parsed.problems,
        name_pos: parsed.name_pos,
        positions: parsed.positions,
    }
}

fn read_meta(file: &Path, folder: &str, reads: &Reads) -> MetaParse {
    let fail = |problem| MetaParse {
        meta: None,
        problems: vec![problem],
        name_pos: Pos::START,
        positions: Vec::new(),
    };
    let head = match read_head(file, reads) {
        Ok(head) => head,
        Err(e) => {
            let code = ProblemCode::CannotRead { detail: e.to_string() };
            return fail(
                Problem::error(file, Pos::START, format!("cannot read: {e}")).with_code(code),
            );
        }
    };
    match split(&head) {
        Ok(parts) => parse_meta(parts.yaml, parts.yaml_line, file, folder),
        Err(e) => fail(Problem::error(file, e.pos, e.message)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn write(dir: &Path, text: &str) {
        std::fs::create_dir_all(dir).unwrap();
        std::fs::write(dir.join(SKILL_FILE), text).unwrap();
    }

    #[test]
    fn unchanged_files_are_not_reread_and_broken_ones_keep_the_last_good() {
        let tmp = tempfile::tempdir().unwrap();
        let dir = tmp.path().join("bazi");
        write(&dir, "---\nname: bazi\ndescription: one\n---\nbody\n");
        let reads = Reads::default();
        let first = scan_skill(&dir, None, false, &reads);
        assert_eq!(first.meta.as_ref().unwrap().description, "one");
        let again = scan_skill(&dir, Some(&first), false, &reads);
        assert_eq!((reads.count(), &again), (1, &first));

        write(&dir, "---\nname: bazi\ndescription: [broken\n---\n");
        let broken = scan_skill(&dir, Some(&first), false, &reads);
        assert!(broken.meta.is_none());
        assert_eq!(broken.usable().unwrap().description, "one");
        assert!(broken.problems[0].to_string().contains("invalid YAML"), "{:?}", broken.problems);

        write(&dir, "---\nname: bazi\ndescription: two\n---\n");
        let fixed = scan_skill(&dir, Some(&broken), false, &reads);
        assert_eq!(fixed.meta.unwrap().description, "two");
        assert!(fixed.last_good.is_none());
    }

    #[test]
    fn missing_fence_is_an_error_at_line_one() {
        let tmp = tempfile::tempdir().unwrap();
        let dir = tmp.path().join("x");
        write(&dir, "# just markdown\n");
        let s = scan_skill(&dir, None, false, &Reads::default());
        assert!(s.usable().is_none());
        assert!(
            s.problems[0]
                .to_string()
                .contains("SKILL.md:1:1: the file must start with a `---` line")
        );
    }
}
