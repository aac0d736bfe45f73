//! `vibe models list|pull|rm|use|add`: a GGUF file added by path, used (the settings select
//! the `local` preset with it) and removed; a catalogue model pulled from the file server on
//! 127.0.0.1 through a catalogue named by `VIBE_MODELS_CATALOG`; errors with their hints.

use std::path::Path;

use serde_json::{Value, json};
use sha2::{Digest as _, Sha256};
use vibe_test_support::FileServer;

use crate::support::{in_dir, ok_json, ok_json_in, run};

/// A small file that starts like a GGUF model.
fn fake_gguf(len: usize) -> Vec<u8> {
    let mut bytes = b"GGUF".to_vec();
    bytes.extend((0..len - 4).map(|i| (i * 31 % 251) as u8));
    bytes
}

fn settings(dir: &Path) -> Value {
    let text = std::fs::read_to_string(dir.join("settings.json")).unwrap();
    serde_json::from_str(&text).unwrap()
}

#[test]
fn a_gguf_file_is_added_used_listed_and_removed() {
    let tmp = tempfile::tempdir().unwrap();
    let data = tmp.path().join("data");
    let file = tmp.path().join("Tiny Coach Q8_0.gguf");
    std::fs::write(&file, fake_gguf(4096)).unwrap();

    let added = ok_json_in(&data, &["models", "add", file.to_str().unwrap()]);
    assert_eq!(added["id"], "tiny-coach-q8_0");
    assert_eq!(added["origin"], "file");
    assert_eq!(added["sha256"], hex::encode(Sha256::digest(fake_gguf(4096))));
    let installed = data.join("models/tiny-coach-q8_0.gguf");
    assert_eq!(std::fs::read(&installed).unwrap(), fake_gguf(4096));

    let used = ok_json_in(&data, &["models", "use", "tiny-coach-q8_0"]);
    assert_eq!(used["model"]["in_use"], true);
    let llm = &settings(&data)["llm"];
    assert_eq!(
        (llm["preset"].as_str(), llm["model"].as_str()),
        (Some("local"), Some("tiny-coach-q8_0"))
    );

    let list = ok_json_in(&data, &["models", "list"]);
    assert_eq!(list["in_use"], "tiny-coach-q8_0");
    assert_eq!(list["catalog_source"], "shipped");
    assert_eq!(list["catalog"].as_array().map(Vec::len), Some(5));
    assert!(list["free_bytes"].as_u64().is_some_and(|b| b > 0));
    let ids: Vec<_> =
        list["installed"].as_array().unwrap().iter().map(|m| m["id"].clone()).collect();
    assert_eq!(ids, [json!("tiny-coach-q8_0")]);
    let text = String::from_utf8(run(&data, &["models", "list"]).stdout).unwrap();
    assert!(text.contains("qwen2.5-1.5b-instruct-q4_k_m") && text.contains("[in use]"), "{text}");

    let removed = ok_json_in(&data, &["models", "rm", "tiny-coach-q8_0"]);
    assert_eq!(
        (removed["was_installed"].clone(), removed["was_in_use"].clone()),
        (json!(true), json!(true))
    );
    assert!(!installed.exists());
    let list = ok_json_in(&data, &["models", "list"]);
    assert_eq!(list["installed"], json!([]));
}

#[test]
fn errors_say_what_to_do_and_change_nothing() {
    let tmp = tempfile::tempdir().unwrap();
    let data = tmp.path().join("data");
    let text_file = tmp.path().join("notes.gguf");
    std::fs::write(&text_file, "just text").unwrap();
    let out = run(&data, &["models", "add", text_file.to_str().unwrap()]);
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("is not a GGUF model file"));

    let out = run(&data, &["models", "use", "nope"]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success());
    assert!(
        stderr.contains("no installed model \"nope\"") && stderr.contains("`vibe models list`"),
        "{stderr}"
    );
    let llm = std::fs::read_to_string(data.join("settings.json")).map(|t| t.contains("\"local\""));
    assert!(!llm.unwrap_or(false), "a failed use wrote nothing");

    let out = run(&data, &["models", "pull", "no-such-model"]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("no model \"no-such-model\" in the catalogue"), "{stderr}");
}

#[test]
fn a_catalogue_model_is_pulled_from_the_catalogue_the_environment_names() {
    let tmp = tempfile::tempdir().unwrap();
    let data = tmp.path().join("data");
    let server = FileServer::start();
    let bytes = fake_gguf(200_000);
    server.serve("/cdn/tiny.gguf", bytes.clone()).redirect("/hub/tiny.gguf", "/cdn/tiny.gguf");
    let catalog = tmp.path().join("catalog.json");
    let entry = json!({
        "id": "tiny-q8_0", "name": "Tiny", "parameters": "100K", "quantization": "Q8_0",
        "url": server.url("/hub/tiny.gguf"), "size_bytes": bytes.len(),
        "sha256": hex::encode(Sha256::digest(&bytes)), "license": "MIT",
        "context_length": 256, "ram_bytes": 1_000_000
    });
    std::fs::write(&catalog, json!({"models": [entry]}).to_string()).unwrap();

    let pull = |args: &[&str]| {
        let mut cmd = in_dir(&data);
        cmd.env("VIBE_MODELS_CATALOG", &catalog);
        ok_json(&mut cmd, args)
    };
    let pulled = pull(&["models", "pull", "tiny-q8_0"]);
    assert_eq!(pulled["already_installed"], false);
    assert_eq!(pulled["model"]["origin"], "catalog");
    assert_eq!(std::fs::read(data.join("models/tiny-q8_0.gguf")).unwrap(), bytes);
    let list = pull(&["models", "list"]);
    assert_eq!(list["catalog_source"], catalog.display().to_string());
    assert_eq!(list["catalog"][0]["installed"], true);
    let again = pull(&["models", "pull", "tiny-q8_0"]);
    assert_eq!(again["already_installed"], true);
}
