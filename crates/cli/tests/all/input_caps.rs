//! Input bounds: every file or stdin line the CLI reads is size-capped, so `/dev/zero` or a
//! huge file is refused with its path, size and the cap, and nothing is changed.

#![allow(clippy::unwrap_used)] // test helpers outside #[test] fns unwrap too

use std::path::Path;

use crate::support::{in_dir, ok_json_in, run};

/// The command failed, named `file` and the 4 MiB cap, and did not run out of memory.
fn refused(dir: &Path, args: &[&str], file: &str) -> String {
    let out = run(dir, args);
    let stderr = String::from_utf8(out.stderr).unwrap();
    assert!(!out.status.success(), "{args:?} should fail: {stderr}");
    assert!(stderr.contains(file), "{args:?} names the file: {stderr}");
    assert!(stderr.contains("4 MiB"), "{args:?} names the cap: {stderr}");
    stderr
}

#[test]
fn dev_zero_and_a_huge_file_are_refused_by_every_file_reading_command() {
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("data");
    let big = dir.path().join("big.json");
    std::fs::File::create(&big).unwrap().set_len(5 * 1024 * 1024).unwrap();
    let big = big.to_str().unwrap();
    let before = ok_json_in(&data, &["profile", "show"]);
    for file in ["/dev/zero", big] {
        let said = refused(&data, &["profile", "import", file], file);
        if file == big {
            assert!(said.contains("5242880 bytes"), "{said}");
        }
        refused(&data, &["eval", file], file);
        refused(&data, &["safety", "eval", file], file);
        refused(
            &data,
            &["llm", "probe", "--base-url", "http://127.0.0.1:9/v1", "--tools", file],
            file,
        );
    }
    assert_eq!(ok_json_in(&data, &["profile", "show"]), before, "the profile is untouched");
}

#[test]
fn a_stdin_line_longer_than_the_cap_is_refused_without_reading_it_all() {
    let dir = tempfile::tempdir().unwrap();
    // 300 KiB without a line end, then a line that would be screened.
    let mut input = vec![b'x'; 300 * 1024];
    input.extend_from_slice(b"\nI feel fine\n");
    let out = in_dir(dir.path()).args(["safety", "check"]).write_stdin(input).output().unwrap();
    let stderr = String::from_utf8(out.stderr).unwrap();
    assert!(!out.status.success(), "{stderr}");
    assert!(stderr.contains("line 1 of stdin") && stderr.contains("256 KiB"), "{stderr}");
    assert!(out.stdout.is_empty(), "nothing screened: {}", String::from_utf8_lossy(&out.stdout));
}

#[test]
fn a_chat_line_longer_than_the_cap_ends_the_repl_with_an_error() {
    let dir = tempfile::tempdir().unwrap();
    let script = dir.path().join("s.yaml");
    std::fs::write(&script, "responses:\n  - text: \"hi\"\n").unwrap();
    let mut input = vec![b'x'; 300 * 1024];
    input.extend_from_slice(b"\n");
    let out = in_dir(&dir.path().join("data"))
        .args(["chat"])
        .env("VIBE_LLM_BASE_URL", format!("scripted:{}", script.display()))
        .write_stdin(input)
        .output()
        .unwrap();
    let stderr = String::from_utf8(out.stderr).unwrap();
    assert!(!out.status.success(), "an over-size line is a failure, not an end: {stderr}");
    assert!(stderr.contains("line 1 of stdin") && stderr.contains("256 KiB"), "{stderr}");
    assert!(stderr.contains("input ends here"), "{stderr}");
}
