//! The encrypted database through `vibe` (docs/privacy.md): `db info` shows the key mode, and
//! warns when encryption is off; a missing or wrong passphrase is a clear error with the way
//! out and changes nothing. The suite runs without a keychain, in the passphrase mode.

use std::process::Stdio;

use serde_json::Value;

use crate::support::{PASSPHRASE, in_dir, ok_json_in, run, vibe_std};

fn stderr(out: &std::process::Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

#[test]
fn db_info_shows_the_key_mode_and_warns_when_encryption_is_off() {
    let dir = tempfile::tempdir().unwrap();
    let info = ok_json_in(dir.path(), &["db", "info"]);
    assert_eq!(info["encryption"], "passphrase", "{info}");
    let bytes = std::fs::read(dir.path().join("vibe.db")).unwrap();
    assert!(!bytes.starts_with(b"SQLite format 3"), "the file is not encrypted");

    let clear = tempfile::tempdir().unwrap();
    let out = in_dir(clear.path()).args(["--no-encryption", "db", "info"]).output().unwrap();
    assert!(out.status.success(), "{}", stderr(&out));
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("encryption:     OFF - warning"), "{text}");
    // The choice is recorded: later commands need no flag and keep warning.
    let info: Value = ok_json_in(clear.path(), &["db", "info"]);
    assert_eq!(info["encryption"], "none");
    let out = run(clear.path(), &["--no-encryption", "db", "check"]);
    assert!(out.status.success(), "{}", stderr(&out));
}

#[test]
fn a_missing_or_wrong_passphrase_is_refused_with_the_way_out_and_changes_nothing() {
    let dir = tempfile::tempdir().unwrap();
    ok_json_in(
        dir.path(),
        &[
            "state",
            "write",
            "--skill",
            "lifecoach",
            "--section",
            "goals",
            "--data",
            r#"{"q1": "私密目标"}"#,
        ],
    );
    let db = dir.path().join("vibe.db");
    let before = std::fs::read(&db).unwrap();

    for args in [&["db", "info"][..], &["db", "check"][..]] {
        let out = vibe_std()
            .arg("--data-dir")
            .arg(dir.path())
            .env_remove("VIBE_DB_PASSPHRASE")
            .args(args)
            .stdin(Stdio::null())
            .output()
            .unwrap();
        assert!(!out.status.success(), "{args:?}: opened without its passphrase");
        let err = stderr(&out);
        assert!(err.contains("encrypted with a passphrase"), "{args:?}: {err}");
        assert!(err.contains("VIBE_DB_PASSPHRASE"), "{args:?}: no way out in: {err}");
    }

    let out = vibe_std()
        .arg("--data-dir")
        .arg(dir.path())
        .env("VIBE_DB_PASSPHRASE", format!("{PASSPHRASE}!"))
        .args(["state", "read", "--skill", "lifecoach"])
        .stdin(Stdio::null())
        .output()
        .unwrap();
    assert!(!out.status.success());
    let err = stderr(&out);
    assert!(err.contains("the key is wrong") && err.contains("Nothing was written"), "{err}");
    assert!(!err.contains(PASSPHRASE), "the passphrase must not be printed: {err}");
    assert_eq!(std::fs::read(&db).unwrap(), before, "the file was changed");

    let read = ok_json_in(dir.path(), &["state", "read", "--skill", "lifecoach"]);
    assert_eq!(read["data"]["goals"]["q1"], "私密目标", "{read}");
}
