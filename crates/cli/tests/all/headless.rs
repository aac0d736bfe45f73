//! `scripts/run.sh` on a machine with no display and no keychain (its `scripts/headless.sh`):
//! what needs no key is shown (where the data would live, the skills, the protocols), then how
//! to choose a passphrase, and it ends without an error, creating nothing of the person's.

use std::process::Command;

use assert_cmd::cargo::cargo_bin;

const HEADLESS: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../../scripts/headless.sh");

#[test]
fn without_a_display_or_a_keychain_the_skills_protocols_and_how_to_choose_a_passphrase_show() {
    let home = tempfile::tempdir().unwrap();
    let vibe = crate::support::vibe_std();
    let mut cmd = Command::new("bash");
    cmd.arg(HEADLESS).arg(cargo_bin("vibe"));
    for (name, value) in vibe.get_envs() {
        match value {
            Some(value) => cmd.env(name, value),
            None => cmd.env_remove(name),
        };
    }
    // A fresh home, no passphrase, no D-Bus session (no keychain), no display.
    cmd.env("XDG_DATA_HOME", home.path())
        .env_remove("VIBE_DB_PASSPHRASE")
        .env("DBUS_SESSION_BUS_ADDRESS", "disabled:")
        .env_remove("DISPLAY")
        .env_remove("WAYLAND_DISPLAY")
        .stdin(std::process::Stdio::null());
    let out = cmd.output().unwrap();
    let shown = String::from_utf8_lossy(&out.stdout);
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{shown}\n{err}");
    let data_dir = home.path().join("app.vibelife.desktop");
    assert!(shown.contains(&format!("Your data would live in: {}", data_dir.display())), "{shown}");
    // The built-in skills and a protocol of one, without any key.
    assert!(shown.contains("lifecoach") && shown.contains("bazi"), "{shown}");
    assert!(shown.contains("dankoe"), "no protocols: {shown}");
    assert!(shown.contains("choose a passphrase"), "{shown}");
    assert!(shown.contains("VIBE_DB_PASSPHRASE=... scripts/run.sh chat"), "{shown}");
    assert!(!data_dir.join("vibe.db").exists(), "a database was made without the person");
}
