//! Writing skill folders for tests: a `SKILL.md` with the given frontmatter and body, or any
//! file inside a skills root. Only writes files; what a skill means is `vibe-skills`'.

use std::path::{Path, PathBuf};

/// Write `text` to `root/rel`, making the folders on the way.
///
/// # Panics
/// When the file cannot be written.
pub fn write_file(root: &Path, rel: &str, text: &str) {
    let path = root.join(rel);
    let written = match path.parent() {
        Some(dir) => std::fs::create_dir_all(dir).and_then(|()| std::fs::write(&path, text)),
        None => std::fs::write(&path, text),
    };
    if let Err(e) = written {
        panic!("cannot write {}: {e}", path.display());
    }
}

/// Write the skill folder `root/name` with a `SKILL.md` of `name`, the extra `frontmatter`
/// lines and `body`; returns the folder.
///
/// # Panics
/// When the file cannot be written.
pub fn write_skill(root: &Path, name: &str, frontmatter: &str, body: &str) -> PathBuf {
    write_file(
        root,
        &format!("{name}/SKILL.md"),
        &format!("---\nname: {name}\n{frontmatter}\n---\n\n{body}\n"),
    );
    root.join(name)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn writes_a_skill_md_with_its_name_first() {
        let dir = std::env::temp_dir().join(format!("vibe-skill-folder-{}", std::process::id()));
        let folder = write_skill(&dir, "coach", "description: 教练", "# 教练");
        let text = std::fs::read_to_string(folder.join("SKILL.md")).unwrap();
        assert_eq!(text, "---\nname: coach\ndescription: 教练\n---\n\n# 教练\n");
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
