use super::*;
use crate::ModelsSettingsExt;

fn entry_json(id: &str, sha: &str, url: &str) -> String {
    format!(
        r#"{{"id":"{id}","name":"M","parameters":"1B","quantization":"Q4_K_M","url":"{url}","size_bytes":10,"sha256":"{sha}","license":"MIT","context_length":2048,"ram_bytes":1}}"#
    )
}

const SHA: &str = "74a4da8c9fdbcd15bd1f6d01d621410d31c6fc00986f5eb687824e7b93d7a9db";

fn message(text: &str) -> String {
    match Catalog::parse(text, "test.json") {
        Ok(c) => panic!("accepted: {c:?}"),
        Err(e) => e.to_string(),
    }
}

#[test]
fn the_shipped_catalogue_is_valid_and_lists_the_five_models() {
    let catalog = Catalog::shipped().unwrap_or_else(|e| panic!("{e}"));
    let ids: Vec<_> = catalog.models.iter().map(|m| m.id.as_str()).collect();
    assert_eq!(
        ids,
        [
            "qwen2.5-0.5b-instruct-q4_k_m",
            "qwen2.5-1.5b-instruct-q4_k_m",
            "qwen2.5-3b-instruct-q4_k_m",
            "llama-3.2-1b-instruct-q4_k_m",
            "llama-3.2-3b-instruct-q4_k_m",
        ]
    );
    for m in &catalog.models {
        assert!(m.url.starts_with("https://huggingface.co/"), "{}", m.url);
        assert!(m.url.ends_with(".gguf"), "{}", m.url);
        assert!(m.ram_bytes > m.size_bytes, "{}: RAM below the file size", m.id);
    }
    assert_eq!(catalog.source, "shipped");
}

#[test]
fn invalid_entries_are_refused_naming_the_entry_and_the_field() {
    let one = |e: String| format!(r#"{{"models":[{e}]}}"#);
    let bad_sha = message(&one(entry_json("a", "ABC", "https://h/x.gguf")));
    assert!(bad_sha.contains("models[0] (\"a\")") && bad_sha.contains("sha256"), "{bad_sha}");
    let bad_url = message(&one(entry_json("a", SHA, "ftp://h/x.gguf")));
    assert!(bad_url.contains("\"url\""), "{bad_url}");
    let bad_id = message(&one(entry_json("../a", SHA, "https://h/x.gguf")));
    assert!(bad_id.contains("cannot be a model id"), "{bad_id}");
    let twice = format!(
        r#"{{"models":[{},{}]}}"#,
        entry_json("a", SHA, "https://h/x.gguf"),
        entry_json("a", SHA, "https://h/y.gguf")
    );
    assert!(message(&twice).contains("listed twice"));
    let typo = message(r#"{"models":[], "modles":[]}"#);
    assert!(typo.contains("unknown field") && typo.contains("line 1"), "{typo}");
    assert!(message("{").starts_with("model catalogue test.json: invalid JSON"));
}

#[tokio::test]
async fn a_catalogue_file_replaces_the_shipped_one_and_a_missing_file_is_named() {
    let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
    let path = dir.path().join("catalog.json");
    let text =
        format!(r#"{{"models":[{}]}}"#, entry_json("mine", SHA, "http://127.0.0.1:1/m.gguf"));
    std::fs::write(&path, text).unwrap_or_else(|e| panic!("{e}"));
    let client = reqwest::Client::new();
    let location = path.display().to_string();
    let catalog = Catalog::load(Some(&location), &client).await.unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(catalog.models.len(), 1);
    assert_eq!(catalog.find("mine").map(|m| m.size_bytes).ok(), Some(10));
    let unknown = catalog.find("qwen").err().map(|e| e.to_string()).unwrap_or_default();
    assert!(unknown.contains("the ids are: mine"), "{unknown}");

    let missing = dir.path().join("nope.json").display().to_string();
    let err = Catalog::load(Some(&missing), &client).await.err().map(|e| e.to_string());
    let err = err.unwrap_or_default();
    assert!(err.contains("nope.json") && err.contains(CATALOG_ENV), "{err}");
    let shipped = Catalog::load(None, &client).await.map(|c| c.models.len()).ok();
    assert_eq!(shipped, Some(5));
}

#[test]
fn the_environment_wins_over_the_setting() {
    let settings = crate::ModelsSettings { catalog: Some("/from/settings.json".into()) };
    assert_eq!(settings.catalog_location(|_| None).as_deref(), Some("/from/settings.json"));
    let env = settings.catalog_location(|k| (k == CATALOG_ENV).then(|| "http://m/c.json".into()));
    assert_eq!(env.as_deref(), Some("http://m/c.json"));
    assert_eq!(crate::ModelsSettings::default().catalog_location(|_| None), None);
}
