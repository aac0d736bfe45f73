//! A database that cannot be used is one clear refusal, never a wall of text or a write into a
//! broken file: a failed migration names the migration and SQLite's reason (not its SQL); a
//! copy of a real database with flipped bytes is refused naming the file and the backup to
//! restore; a read-only data dir names the file and the cause.

use std::path::Path;

use crate::support::{in_dir, make_outdated, ok_json_in, run};

fn stderr(out: &std::process::Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

const GOALS: &[&str] =
    &["state", "write", "--skill", "coach", "--section", "goals", "--data", r#"{"q1": "跑步"}"#];

#[test]
fn a_failed_migration_is_one_short_line_naming_the_migration_and_the_reason() {
    let dir = tempfile::tempdir().unwrap();
    ok_json_in(dir.path(), GOALS);
    // The file says version 2 but already holds what migration 3 creates.
    crate::support::db(dir.path()).pragma_update(None, "user_version", 2).unwrap();

    let out = run(dir.path(), &["state", "read", "--skill", "coach"]);
    assert!(!out.status.success());
    let err = stderr(&out);
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(err.len() < 500, "{} bytes: {err}", err.len());
    assert!(!err.contains("CREATE") && !err.contains("rusqlite_migration"), "SQL in: {err}");
    assert!(err.contains(&dir.path().join("vibe.db").display().to_string()), "{err}");
    assert!(err.contains("migration 0003_token_calibration.sql failed"), "{err}");
    assert_eq!(err.matches("table token_calibration already exists").count(), 1, "{err}");
    let version: i64 =
        crate::support::db(dir.path()).query_row("PRAGMA user_version", [], |r| r.get(0)).unwrap();
    assert_eq!(version, 2, "the failed upgrade was rolled back");
}

/// A clear data dir (so page bytes mean something) whose database was upgraded once, so a
/// backup lies beside it, and holds the coach's goals.
fn clear_dir_with_a_backup() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    let out = in_dir(dir.path()).args(["--no-encryption", "db", "info"]).output().unwrap();
    assert!(out.status.success(), "{}", stderr(&out));
    make_outdated(dir.path(), false);
    let out = run(dir.path(), GOALS);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(stderr(&out).contains("note: upgraded"), "{}", stderr(&out));
    dir
}

/// Copies the regular files of `from` into a new folder.
fn copy_dir(from: &Path) -> tempfile::TempDir {
    let to = tempfile::tempdir().unwrap();
    for entry in std::fs::read_dir(from).unwrap().flatten() {
        if entry.file_type().unwrap().is_file() {
            std::fs::copy(entry.path(), to.path().join(entry.file_name())).unwrap();
        }
    }
    to
}

/// Flips the first bytes (the page header) of `table`'s root page in the clear file `db`.
fn flip_page_of(db: &Path, table: &str) {
    let conn = rusqlite::Connection::open(db).unwrap();
    conn.query_row("PRAGMA wal_checkpoint(TRUNCATE)", [], |_| Ok(())).unwrap();
    let root: i64 = conn
        .query_row("SELECT rootpage FROM sqlite_schema WHERE name = ?1", [table], |r| r.get(0))
        .unwrap();
    let page_size: i64 = conn.query_row("PRAGMA page_size", [], |r| r.get(0)).unwrap();
    drop(conn);
    let mut bytes = std::fs::read(db).unwrap();
    let at = ((root - 1) * page_size) as usize;
    for b in &mut bytes[at..at + 8] {
        *b ^= 0xff;
    }
    std::fs::write(db, bytes).unwrap();
}

#[test]
fn a_copy_with_flipped_bytes_is_refused_naming_the_file_and_the_backup_to_restore() {
    let original = clear_dir_with_a_backup();
    let copy = copy_dir(original.path());
    let db = copy.path().join("vibe.db");
    let backup = vibe_store::list_backups(&db).pop().expect("a backup beside the copy");
    flip_page_of(&db, "skill_states");
    let damaged = std::fs::read(&db).unwrap();

    let write = ["state", "write", "--skill", "coach", "--section", "goals", "--data", "{}"];
    for args in [&write[..], &["state", "read", "--skill", "coach"], &["db", "check"]] {
        let out = run(copy.path(), args);
        assert!(!out.status.success(), "{args:?} went on with a damaged file");
        let err = stderr(&out);
        assert!(err.contains(&format!("database {} is damaged", db.display())), "{args:?}: {err}");
        assert!(err.contains("quick check"), "{args:?}: what is damaged: {err}");
        assert!(err.contains("Nothing was written to it"), "{args:?}: {err}");
        let restore = format!("copy {} over {}", backup.display(), db.display());
        assert!(err.contains(&restore), "{args:?}: no way back in: {err}");
        assert_eq!(std::fs::read(&db).unwrap(), damaged, "{args:?} wrote into the damaged file");
    }

    // The advice works: the backup copied over the file opens (as it was before the upgrade).
    std::fs::copy(&backup, &db).unwrap();
    let listed = ok_json_in(copy.path(), &["conversations", "list"]);
    assert!(listed.to_string().contains("old-conversation"), "{listed}");
    // The original was never touched.
    let read = ok_json_in(original.path(), &["state", "read", "--skill", "coach"]);
    assert_eq!(read["data"]["goals"]["q1"], "跑步", "{read}");
}

/// Runs `vibe --data-dir DIR ARGS` with DIR read-only: by its mode for a normal user, by a
/// read-only bind mount for root (whom modes do not bind), then `true`. `None` (a skip, which
/// fails under `CI=true`) where neither can be had.
fn run_read_only(dir: &Path, args: &[&str]) -> Option<(std::process::Output, bool)> {
    use std::os::unix::fs::{MetadataExt as _, PermissionsExt as _};
    let probe = dir.join(".owner-probe");
    std::fs::write(&probe, b"").unwrap();
    let root = std::fs::metadata(&probe).unwrap().uid() == 0;
    std::fs::remove_file(&probe).unwrap();
    let mut cmd = crate::support::vibe_std();
    cmd.arg("--data-dir").arg(dir).args(args);
    if !root {
        std::fs::set_permissions(dir, std::fs::Permissions::from_mode(0o500)).unwrap();
        let out = cmd.output().unwrap();
        std::fs::set_permissions(dir, std::fs::Permissions::from_mode(0o700)).unwrap();
        return Some((out, false));
    }
    let mut wrapped = std::process::Command::new("unshare");
    wrapped
        .args(["-m", "sh", "-c"])
        .arg(r#"mount --bind "$1" "$1" && mount -o remount,bind,ro "$1" && shift && exec "$@""#)
        .arg("read-only")
        .arg(dir)
        .arg(cmd.get_program())
        .args(cmd.get_args());
    for (name, value) in cmd.get_envs() {
        match value {
            Some(value) => wrapped.env(name, value),
            None => wrapped.env_remove(name),
        };
    }
    let out = wrapped.output().ok()?;
    let err = stderr(&out);
    if err.contains("mount:") || err.contains("unshare:") {
        vibe_test_support::skip(
            &format!("vibe-cli {}", vibe_test_support::current_test("integrity")),
            &format!("a read-only data dir cannot be made: running as root and {err}"),
        );
        return None;
    }
    Some((out, true))
}

#[test]
fn a_read_only_data_dir_is_one_clear_message_naming_the_file_and_the_cause() {
    let dir = tempfile::tempdir().unwrap();
    ok_json_in(dir.path(), GOALS);
    let db = dir.path().join("vibe.db");
    let write = ["state", "write", "--skill", "coach", "--section", "goals", "--data", "{}"];
    let Some((out, root_with_read_only_mount)) = run_read_only(dir.path(), &write) else {
        return;
    };
    assert!(!out.status.success(), "wrote into a read-only data dir");
    let err = stderr(&out);
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(err.contains(&db.display().to_string()), "the file is not named: {err}");
    // A read-only mount (as root) is named as such; a folder without write permission may be
    // either, as the file system reports it.
    assert!(err.contains("read-only") || err.contains("permission denied"), "no cause: {err}");
    if root_with_read_only_mount {
        assert!(err.contains("is read-only"), "{err}");
    }
    assert!(err.contains("Nothing of this change was saved"), "{err}");
    let read = ok_json_in(dir.path(), &["state", "read", "--skill", "coach"]);
    assert_eq!(read["data"]["goals"]["q1"], "跑步", "{read}");
}

#[test]
fn a_read_only_data_dir_still_reads_exports_and_backs_up_elsewhere() {
    let dir = tempfile::tempdir().unwrap();
    ok_json_in(dir.path(), GOALS);
    let rescue = tempfile::tempdir().unwrap();
    let export = rescue.path().join("export");
    let backup = rescue.path().join("rescue.tar");
    let cases: [Vec<&str>; 4] = [
        vec!["--json", "state", "read", "--skill", "coach"],
        vec!["--json", "conversations", "list"],
        vec!["--json", "export", "all", "--out", export.to_str().unwrap()],
        vec!["--json", "backup", "create", "--out", backup.to_str().unwrap()],
    ];
    for args in &cases {
        let Some((out, _)) = run_read_only(dir.path(), args) else {
            return;
        };
        assert!(out.status.success(), "{args:?} on a read-only data dir: {}", stderr(&out));
    }
    assert!(export.join("profile.json").is_file(), "the export was written");
    // The backup is whole: it checks, and restores into a new folder.
    let checked = ok_json_in(dir.path(), &["backup", "verify", backup.to_str().unwrap()]);
    assert_eq!(checked["restorable"], true, "{checked}");
    // Nothing was left in the read-only folder by the rescue (no working folders).
    let left: Vec<_> = std::fs::read_dir(dir.path())
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.starts_with(".backup-") || n.starts_with(".verify-"))
        .collect();
    assert!(left.is_empty(), "{left:?}");
}
