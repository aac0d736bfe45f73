//! `vibe backup create|verify|restore`, `vibe export all` and `vibe erase` wired to the app
//! (the scenarios in depth are the core's, crates/core/tests/all/backup.rs): a round trip
//! through a backup file, an export refusing a non-empty folder, erase refusing without
//! `--yes` and then leaving nothing behind.

use crate::support::{ok_json_in, run};

fn stderr(out: &std::process::Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

#[test]
fn a_backup_round_trips_through_its_file_and_erase_asks_first() {
    let root = tempfile::tempdir().unwrap();
    let data = root.path().join("data");
    ok_json_in(&data, &["profile", "set", "basic.name", "\"小林\""]);
    let file = root.path().join("b.tar");
    let file_arg = file.to_str().unwrap();
    let created = ok_json_in(&data, &["backup", "create", "--out", file_arg]);
    assert_eq!(created["manifest"]["format"], "vibelife-backup", "{created}");
    let verified = ok_json_in(&data, &["backup", "verify", file_arg]);
    assert_eq!(verified["restorable"], true, "{verified}");

    ok_json_in(&data, &["profile", "set", "basic.name", "\"别人\""]);
    let restored = ok_json_in(&data, &["backup", "restore", file_arg]);
    assert!(restored["previous"].as_str().unwrap().contains("pre-restore"), "{restored}");
    let profile = ok_json_in(&data, &["profile", "show"]);
    assert!(profile.to_string().contains("小林"), "{profile}");

    let out_dir = root.path().join("export");
    std::fs::create_dir(&out_dir).unwrap();
    std::fs::write(out_dir.join("keep.txt"), "x").unwrap();
    let out = run(&data, &["export", "all", "--out", out_dir.to_str().unwrap()]);
    assert!(!out.status.success());
    assert!(stderr(&out).contains("not empty"), "{}", stderr(&out));
    let fresh = root.path().join("fresh");
    let exported = ok_json_in(&data, &["export", "all", "--out", fresh.to_str().unwrap()]);
    assert!(exported["files"].as_array().unwrap().iter().any(|f| f == "profile.json"));

    let out = run(&data, &["erase"]);
    assert!(!out.status.success(), "erase without --yes refuses");
    assert!(stderr(&out).contains("vibe.db"), "{}", stderr(&out));
    assert!(data.join("vibe.db").exists());
    let erased = ok_json_in(&data, &["erase", "--yes"]);
    assert_eq!(erased["erased"], true, "{erased}");
    assert!(
        !erased["notes"].to_string().contains("keychain cannot"),
        "a passphrase folder has no key: {erased}"
    );
    assert!(!erased["notes"].to_string().contains("could not be removed"), "{erased}");
    assert!(!data.exists(), "nothing is left of the data folder");
}
