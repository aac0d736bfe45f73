//! `vibe sync setup|join|now|status|devices|pause|resume` between two real data folders through a folder
//! target (docs/sync.md): a journal entry made on one reaches the other, a wrong code is
//! refused and changes nothing, the target holds no clear text. A test machine has no OS
//! keychain, so the key is given as `VIBE_SYNC_CODE` (its documented stand-in).

use std::path::Path;

use assert_cmd::Command;

use crate::support::{in_dir, ok_json, ok_json_in};

/// A valid code (any 32 bytes make one).
pub(crate) const CODE: &str =
    "VL1-ABCD-EFGH-IJKL-MNOP-QRST-UVWX-YZ23-4567-ABCD-EFGH-IJKL-MNOP-QRSA";
const WRONG: &str = "VL1-ZZZZ-EFGH-IJKL-MNOP-QRST-UVWX-YZ23-4567-ABCD-EFGH-IJKL-MNOP-QRSA";
const MARKER: &str = "从A写的日记 marker-7d2e";

pub(crate) fn synced(dir: &Path) -> Command {
    let mut cmd = in_dir(dir);
    cmd.env("VIBE_SYNC_CODE", CODE);
    cmd
}

fn all_bytes(dir: &Path) -> Vec<u8> {
    let mut out = Vec::new();
    for entry in walk(dir) {
        out.extend(std::fs::read(entry).unwrap());
    }
    out
}

fn walk(dir: &Path) -> Vec<std::path::PathBuf> {
    let mut files = Vec::new();
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() { files.extend(walk(&path)) } else { files.push(path) }
    }
    files
}

#[test]
fn a_journal_entry_reaches_another_data_folder_through_setup_join_and_now() {
    let (target, a, b) =
        (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
    let t = target.path().to_str().unwrap();

    let setup = ok_json(&mut synced(a.path()), &["sync", "setup", "--folder", t]);
    assert_eq!(setup["code"], CODE);
    ok_json_in(a.path(), &["journal", "add", MARKER]);
    let sent = ok_json(&mut synced(a.path()), &["sync", "now"]);
    assert_eq!(sent["sent"], 1, "{sent}");

    // A wrong code is refused and leaves the second data folder without sync.
    let out =
        in_dir(b.path()).args(["sync", "join", "--folder", t, "--code", WRONG]).output().unwrap();
    assert!(!out.status.success());
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("does not open the sync target"), "{stderr}");
    assert_eq!(ok_json_in(b.path(), &["sync", "status"])["enabled"], false);

    ok_json(&mut synced(b.path()), &["sync", "join", "--folder", t, "--code", CODE]);
    let got = ok_json(&mut synced(b.path()), &["sync", "now"]);
    assert_eq!((got["received"].as_u64(), got["changed"].as_u64()), (Some(1), Some(1)), "{got}");
    let list = ok_json_in(b.path(), &["journal", "list"]);
    assert_eq!(list["entries"][0]["text"], MARKER, "{list}");

    let status = ok_json_in(b.path(), &["sync", "status"]);
    assert_eq!(status["enabled"], true);
    assert_eq!(status["target"], t);
    assert!(status["last_sync"].is_string(), "{status}");
    assert_eq!(status["devices"].as_array().unwrap().len(), 2, "{status}");
    ok_json(&mut synced(a.path()), &["sync", "now"]);
    let devices = ok_json(&mut synced(a.path()), &["sync", "devices"]);
    assert_eq!(devices["devices"].as_array().unwrap().len(), 2, "{devices}");

    // Pausing the app's background syncing is kept in the settings and said by `status`;
    // resuming takes it back. Asking still syncs while paused.
    assert_eq!(ok_json_in(a.path(), &["sync", "pause"])["paused"], true);
    let shown = in_dir(a.path()).args(["sync", "status"]).output().unwrap();
    let shown = String::from_utf8_lossy(&shown.stdout);
    assert!(shown.contains("background sync: paused (vibe sync resume)"), "{shown}");
    ok_json(&mut synced(a.path()), &["sync", "now"]);
    assert_eq!(ok_json_in(a.path(), &["sync", "resume"])["paused"], false);
    assert_eq!(ok_json_in(a.path(), &["sync", "status"])["paused"], false);

    // The target holds neither the entry nor the key in clear.
    let bytes = all_bytes(target.path());
    let text = String::from_utf8_lossy(&bytes);
    assert!(!text.contains("marker-7d2e") && !text.contains("IJKL"), "clear text on the target");
    // Nor do the settings hold the key.
    let settings = std::fs::read_to_string(a.path().join("settings.json")).unwrap();
    assert!(settings.contains("\"sync\"") && !settings.contains("IJKL"), "{settings}");
}

#[test]
fn setup_and_join_through_webdav_take_the_password_from_the_environment_and_keep_it_out_of_settings()
 {
    use vibe_test_support::{DAV_PASSWORD, DAV_USER, WebDavServer};
    let server = WebDavServer::start();
    let (a, b) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
    let target = ["--webdav", server.url.as_str(), "--user", DAV_USER];
    let with_password = |dir: &Path, password: &str| {
        let mut cmd = synced(dir);
        cmd.env("VIBE_SYNC_PASSWORD", password);
        cmd
    };

    // A wrong password: refused with the URL and what the server said; nothing set up.
    let out = with_password(a.path(), "wrong-Pa55")
        .args(["sync", "setup"])
        .args(target)
        .output()
        .unwrap();
    assert!(!out.status.success());
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains(&server.url) && stderr.contains("401"), "{stderr}");
    assert!(!stderr.contains("wrong-Pa55"), "{stderr}");
    assert_eq!(ok_json_in(a.path(), &["sync", "status"])["enabled"], false);

    let mut setup_args = vec!["sync", "setup"];
    setup_args.extend(target);
    assert_eq!(ok_json(&mut with_password(a.path(), DAV_PASSWORD), &setup_args)["code"], CODE);
    ok_json_in(a.path(), &["journal", "add", MARKER]);
    ok_json(&mut with_password(a.path(), DAV_PASSWORD), &["sync", "now"]);

    let mut join_args = vec!["sync", "join"];
    join_args.extend(target);
    join_args.extend(["--code", CODE]);
    ok_json(&mut with_password(b.path(), DAV_PASSWORD), &join_args);
    ok_json(&mut with_password(b.path(), DAV_PASSWORD), &["sync", "now"]);
    let list = ok_json_in(b.path(), &["journal", "list"]);
    assert_eq!(list["entries"][0]["text"], MARKER, "{list}");

    let status = ok_json_in(b.path(), &["sync", "status"]);
    assert_eq!(status["target"], server.url.as_str(), "{status}");
    assert_eq!(status["target_settings"]["kind"], "webdav", "{status}");
    for dir in [a.path(), b.path()] {
        let settings = std::fs::read_to_string(dir.join("settings.json")).unwrap();
        assert!(settings.contains("webdav") && !settings.contains(DAV_PASSWORD), "{settings}");
    }
    let text = String::from_utf8_lossy(&all_bytes(server.stored())).to_string();
    assert!(!text.contains("marker-7d2e") && !text.contains(DAV_PASSWORD), "clear text stored");
}
