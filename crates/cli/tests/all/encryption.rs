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

/// `vibe ARGS` on a terminal of its own (util-linux `script` gives it a pseudo-terminal), with
/// no keychain and no `VIBE_DB_PASSPHRASE`: each `(prompt, line)` is typed once `prompt` has
/// shown. Returns whether it succeeded and everything the terminal showed.
fn at_a_terminal(args: &[&str], typed: &[(&str, &str)]) -> (bool, String) {
    use std::io::{Read as _, Write as _};
    use std::sync::{Arc, Mutex};

    let vibe = assert_cmd::cargo::cargo_bin("vibe");
    let line = std::iter::once(vibe.display().to_string())
        .chain(args.iter().map(|a| format!("'{a}'")))
        .collect::<Vec<_>>()
        .join(" ");
    let mut cmd = std::process::Command::new("script");
    cmd.args(["-qec", &line, "/dev/null"]);
    // `vibe_std`'s environment (no VIBE_* of the developer's, private XDG folders), minus the
    // passphrase, and no D-Bus session: no keychain.
    let base = vibe_std();
    for (k, v) in base.get_envs() {
        match v {
            Some(v) => cmd.env(k, v),
            None => cmd.env_remove(k),
        };
    }
    cmd.env_remove("VIBE_DB_PASSPHRASE").env("DBUS_SESSION_BUS_ADDRESS", "disabled:");
    let mut child =
        cmd.stdin(Stdio::piped()).stdout(Stdio::piped()).stderr(Stdio::piped()).spawn().unwrap();
    let shown = Arc::new(Mutex::new(String::new()));
    let mut out = child.stdout.take().unwrap();
    let sink = shown.clone();
    let reader = std::thread::spawn(move || {
        let mut buf = [0u8; 4096];
        while let Ok(n) = out.read(&mut buf) {
            if n == 0 {
                break;
            }
            sink.lock().unwrap().push_str(&String::from_utf8_lossy(&buf[..n]));
        }
    });
    let mut stdin = child.stdin.take().unwrap();
    let mut seen = 0;
    for (prompt, text) in typed {
        let deadline = std::time::Instant::now() + std::time::Duration::from_secs(60);
        loop {
            let now = shown.lock().unwrap().clone();
            if let Some(at) = now[seen..].find(prompt) {
                seen += at + prompt.len();
                break;
            }
            assert!(std::time::Instant::now() < deadline, "no {prompt:?} on the terminal:\n{now}");
            std::thread::sleep(std::time::Duration::from_millis(50));
        }
        stdin.write_all(format!("{text}\n").as_bytes()).unwrap();
        stdin.flush().unwrap();
    }
    let status = child.wait().unwrap();
    drop(stdin);
    reader.join().unwrap();
    let shown = shown.lock().unwrap().clone();
    (status.success(), shown)
}

#[test]
fn without_a_keychain_a_person_at_a_terminal_chooses_a_passphrase_for_a_new_folder() {
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("data");
    let data_arg = data.to_str().unwrap();
    let (ok, shown) = at_a_terminal(
        &["--data-dir", data_arg, "db", "info"],
        &[("New passphrase: ", "my own words"), ("again: ", "my own words")],
    );
    assert!(ok, "{shown}");
    assert!(shown.contains("no keychain here"), "the reason is told:\n{shown}");
    assert!(!shown.contains("my own words"), "the passphrase is never echoed:\n{shown}");
    assert!(shown.contains("encryption:     on (passphrase)"), "{shown}");
    // The folder opens with that passphrase from then on, and with no other.
    let info: Value = serde_json::from_slice(
        &vibe_std()
            .args(["--data-dir", data_arg, "--json", "db", "info"])
            .env("VIBE_DB_PASSPHRASE", "my own words")
            .output()
            .unwrap()
            .stdout,
    )
    .unwrap();
    assert_eq!(info["encryption"], "passphrase");
    let wrong = vibe_std().args(["--data-dir", data_arg, "db", "info"]).output().unwrap();
    assert!(!wrong.status.success());

    // Two different passphrases: refused, and nothing is created.
    let other = dir.path().join("other");
    let (ok, shown) = at_a_terminal(
        &["--data-dir", other.to_str().unwrap(), "db", "info"],
        &[("New passphrase: ", "one"), ("again: ", "two")],
    );
    assert!(!ok, "{shown}");
    assert!(shown.contains("the two passphrases differ"), "{shown}");
    assert!(!other.join("vibe.db").exists(), "no database was made");
}
