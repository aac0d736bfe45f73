//! Listing without reading, path escapes refused, truncation marked.

use super::*;

fn skill() -> (tempfile::TempDir, PathBuf) {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("bazi");
    for (rel, text) in [
        ("SKILL.md", "---\nname: bazi\ndescription: d\n---\n"),
        ("references/guide.md", "指南"),
        ("scripts/run.py", "print(1)"),
        ("assets/logo.txt", "logo"),
        ("cases/a.md", "case"),
        (".hidden", "x"),
    ] {
        let p = dir.join(rel);
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
        std::fs::write(p, text).unwrap();
    }
    std::fs::write(tmp.path().join("secret.txt"), "outside").unwrap();
    (tmp, dir)
}

#[test]
fn listing_reports_files_and_kinds_without_reading_them() {
    let (_tmp, dir) = skill();
    let listed: Vec<_> = list(&dir).into_iter().map(|r| (r.path, r.kind, r.bytes)).collect();
    assert_eq!(
        listed,
        vec![
            ("assets/logo.txt".into(), ResourceKind::Asset, 4),
            ("cases/a.md".into(), ResourceKind::Part, 4),
            ("references/guide.md".into(), ResourceKind::Reference, 6),
            ("scripts/run.py".into(), ResourceKind::Script, 8),
        ]
    );
}

#[test]
fn dot_dot_and_absolute_paths_are_refused() {
    let (_tmp, dir) = skill();
    for bad in ["../secret.txt", "references/../../secret.txt", "/etc/passwd", ""] {
        let err = resolve("bazi", &dir, bad).unwrap_err();
        assert!(matches!(err, SkillsError::PathEscape { .. }), "{bad}: {err}");
        assert!(err.to_string().contains("refused to read"), "{err}");
    }
    assert!(resolve("bazi", &dir, "./references/guide.md").is_ok());
}

#[cfg(unix)]
#[test]
fn symlinks_pointing_out_are_refused_and_inside_ones_allowed() {
    let (tmp, dir) = skill();
    std::os::unix::fs::symlink(tmp.path().join("secret.txt"), dir.join("references/leak.md"))
        .unwrap();
    std::os::unix::fs::symlink(dir.join("references/guide.md"), dir.join("assets/alias.md"))
        .unwrap();
    let err = resolve("bazi", &dir, "references/leak.md").unwrap_err();
    assert!(err.to_string().contains("a link pointing outside the skill folder"), "{err}");
    assert_eq!(load("bazi", &dir, "assets/alias.md", 100, &Reads::default()).unwrap().text, "指南");
    let listed: Vec<_> = list(&dir).into_iter().map(|r| r.path).collect();
    assert!(!listed.contains(&"references/leak.md".to_string()), "{listed:?}");
    assert!(listed.contains(&"assets/alias.md".to_string()), "{listed:?}");
}

#[test]
fn long_resources_are_cut_at_a_character_with_a_marker() {
    let (_tmp, dir) = skill();
    // "指南" is 6 bytes; a 4-byte cap splits the second character.
    let r = load("bazi", &dir, "references/guide.md", 4, &Reads::default()).unwrap();
    assert!(r.truncated);
    assert_eq!(
        r.text,
        "指\n\n[truncated: showing the first 3 of 6 bytes of references/guide.md]\n"
    );
    let whole = load("bazi", &dir, "references/guide.md", 6, &Reads::default()).unwrap();
    assert_eq!((whole.text.as_str(), whole.truncated), ("指南", false));
}

#[test]
fn missing_folders_and_binary_files_are_clear_errors() {
    let (_tmp, dir) = skill();
    let err = load("bazi", &dir, "references/none.md", 10, &Reads::default()).unwrap_err();
    assert_eq!(
        err.to_string(),
        "skill `bazi` has no file `references/none.md` (its resources are listed with the skill)"
    );
    assert!(matches!(
        resolve("bazi", &dir, "references"),
        Err(SkillsError::ResourceNotFound { .. })
    ));
    std::fs::write(dir.join("assets/img.bin"), [0u8, 159, 146, 150]).unwrap();
    assert!(matches!(
        load("bazi", &dir, "assets/img.bin", 10, &Reads::default()),
        Err(SkillsError::NotText { .. })
    ));
}

#[test]
fn the_cache_serves_unchanged_files_without_reading() {
    let (_tmp, dir) = skill();
    let (cache, reads) = (ResourceCache::default(), Reads::default());
    cache.load("bazi", &dir, "references/guide.md", 100, &reads).unwrap();
    cache.load("bazi", &dir, "references/guide.md", 100, &reads).unwrap();
    assert_eq!(reads.count(), 1);
    std::fs::write(dir.join("references/guide.md"), "新的指南").unwrap();
    assert_eq!(
        cache.load("bazi", &dir, "references/guide.md", 100, &reads).unwrap().text,
        "新的指南"
    );
}
