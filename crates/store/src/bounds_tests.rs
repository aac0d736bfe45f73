use serde_json::json;

use super::*;

#[test]
fn paths_longer_than_the_limit_are_refused_naming_it() {
    let path = vec!["a"; 130].join(".");
    let segments: Vec<&str> = path.split('.').collect();
    let err = check_path(&segments, &path, "list path").unwrap_err().to_string();
    assert!(err.contains("130 segments") && err.contains("limit is 16"), "{err}");
    assert!(check_path(&["a", "b"], "a.b", "list path").is_ok());
}

#[test]
fn deep_values_long_keys_and_inexact_integers_are_refused() {
    let mut deep = json!(1);
    for _ in 0..60 {
        deep = json!({ "x": deep });
    }
    let err = check_value(&deep, 2, "skills.s.notes").unwrap_err().to_string();
    assert!(err.contains("limit is 48"), "{err}");
    let long_key = json!({ "k".repeat(300): 1 });
    assert!(check_value(&long_key, 2, "s").unwrap_err().to_string().contains("300 bytes"));
    let big = json!({ "n": 9_007_199_254_740_993u64 });
    let err = check_value(&big, 2, "s").unwrap_err().to_string();
    assert!(err.contains("9007199254740993") && err.contains("string"), "{err}");
    let rounded: serde_json::Value = serde_json::from_str("{\"n\": 1e30}").unwrap();
    assert!(check_value(&rounded, 2, "s").is_err());
    assert!(
        check_value(&json!({"n": 9_007_199_254_740_992u64, "f": 1.5, "m": -3}), 2, "s").is_ok()
    );
    let huge = json!({ "text": "x".repeat(MAX_VALUE_BYTES) });
    assert!(check_value(&huge, 2, "s").unwrap_err().to_string().contains("bytes of JSON"));
}
