//! The public JSONTestSuite (`test_parsing`), read at test time from `$VIBE_JSON_TEST_SUITE`
//! (scripts/env.sh finds the project's shared test data), else `shared/data/JSONTestSuite`
//! beside the repository. It is test data that must not be copied into the repository and
//! no package registry carries it byte for byte (invalid UTF-8 files included), so on a
//! machine without it the test skips: allowed in CI by tests/skip-allow.txt, with the reason. Every file is fed whole and byte by byte:
//! `y_` must be accepted with serde_json's value, `n_` rejected, `i_` must
//! not panic, must give the same verdict both ways, and (with the default
//! settings) the same verdict as serde_json.

use std::path::PathBuf;

use serde_json::Value;

use crate::support::{assert_same, parse_bytewise, parse_whole};

fn suite_dir() -> Option<PathBuf> {
    let root = std::env::var_os("VIBE_JSON_TEST_SUITE").map(PathBuf::from).unwrap_or_else(|| {
        PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../../shared/data/JSONTestSuite")
    });
    let dir = root.join("test_parsing");
    if dir.is_dir() {
        Some(dir)
    } else {
        vibe_test_support::skip(
            "vibe-jsonstream suite::json_test_suite_agrees_with_its_verdicts_and_with_serde_json",
            &format!("the JSONTestSuite is not at {}", dir.display()),
        );
        None
    }
}

#[test]
fn json_test_suite_agrees_with_its_verdicts_and_with_serde_json() {
    let Some(dir) = suite_dir() else {
        return;
    };
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|entry| entry.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "json"))
        .collect();
    files.sort();
    assert!(files.len() > 300, "only {} suite files in {}", files.len(), dir.display());
    let mut failures = Vec::new();
    for path in &files {
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        let bytes = std::fs::read(path).unwrap();
        let whole = parse_whole(&bytes);
        let bytewise = parse_bytewise(&bytes);
        if whole.is_ok() != bytewise.is_ok() {
            failures.push(format!("{name}: whole {whole:?} but byte by byte {bytewise:?}"));
            continue;
        }
        // serde_json recurses while parsing; give it room for the deep files.
        let copy = bytes.clone();
        let theirs = std::thread::Builder::new()
            .stack_size(64 << 20)
            .spawn(move || serde_json::from_slice::<Value>(&copy).ok())
            .unwrap()
            .join()
            .unwrap();
        match (&name[..2], whole, theirs) {
            ("y_", Ok(ours), Some(theirs)) => {
                assert_same(&ours, &theirs, &name);
                assert_same(&bytewise.unwrap(), &theirs, &name);
            }
            ("y_", Ok(_), None) => {
                eprintln!("{name}: accepted; serde_json rejects it, no value to compare")
            }
            ("y_", Err(e), _) => failures.push(format!("{name}: rejected: {e}")),
            ("n_", Ok(v), _) => failures.push(format!("{name}: accepted as {v}")),
            ("i_", Ok(_), None) => {
                failures.push(format!("{name}: accepted; serde_json rejects it"))
            }
            ("i_", Err(e), Some(_)) => {
                failures.push(format!("{name}: rejected ({e}); serde_json accepts it"))
            }
            _ => {}
        }
    }
    assert!(failures.is_empty(), "{} suite failures:\n{}", failures.len(), failures.join("\n"));
}
