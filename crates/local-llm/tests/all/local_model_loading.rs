//! Loading: what the engine reports about a model, its chat template and tokenizer, and the
//! errors of a missing or damaged file.

use vibe_llm::ChatModel;
use vibe_local_llm::{LocalConfig, LocalModel, TemplateSource};

use crate::support::{answer, config, greedy, open};

#[tokio::test]
async fn the_model_is_loaded_once_with_its_context_length_and_chat_template() {
    let model = open("q8_0");
    let info = model.info().await.unwrap();
    assert_eq!(info.trained_context_tokens, 32768);
    assert_eq!(info.context_tokens, 8192, "the default cap is below the model's length");
    assert_eq!(info.template, TemplateSource::Model);
    assert_eq!((info.vocab_size, info.parameters, info.threads), (512, 107_072, 1));
    answer(&model, greedy("hello", 4)).await.unwrap();
    answer(&model, greedy("hello again", 4)).await.unwrap();
    assert_eq!(model.stats().loads, 1);
    assert_eq!(model.list_models().await.unwrap()[0].id, "tiny-q8_0");

    let capped = LocalModel::open(LocalConfig { context_cap: 256, ..config("q8_0") }).unwrap();
    assert_eq!(capped.info().await.unwrap().context_tokens, 256);
}

#[tokio::test]
async fn the_prompt_is_the_conversation_in_the_models_template_counted_by_its_tokenizer() {
    let model = open("q8_0");
    let request = greedy("How do I sleep better?", 3);
    let chatml = "<|im_start|>system\nYou are a coach.<|im_end|>\n<|im_start|>user\nHow do I sleep better?<|im_end|>\n<|im_start|>assistant\n";
    let expected = model.count_tokens(chatml).await.unwrap();
    let got = answer(&model, request).await.unwrap();
    let usage = got.usage.unwrap();
    assert_eq!(usage.prompt_tokens, expected as u64);
    assert_eq!(usage.completion_tokens, 3);
    assert_eq!(usage.total_tokens, expected as u64 + 3);
    // Special tokens are single tokens of the model's own vocabulary; text is byte-level BPE.
    assert_eq!(model.count_tokens("<|im_end|>").await.unwrap(), 1);
    let chinese = model.count_tokens("你好，今天过得怎么样？").await.unwrap();
    assert!(chinese > 1 && chinese < "你好，今天过得怎么样？".len(), "{chinese}");
}

#[tokio::test]
async fn a_prompt_longer_than_the_context_is_refused_with_what_to_change() {
    let model = LocalModel::open(LocalConfig { context_cap: 256, ..config("q8_0") }).unwrap();
    let long = "the week was long and tiring ".repeat(40);
    let err = answer(&model, greedy(&long, 4)).await.unwrap_err().to_string();
    assert!(
        err.contains("context window is 256") && err.contains("llm.local.context_tokens"),
        "{err}"
    );
    // The model still answers a prompt that fits.
    assert_eq!(answer(&model, greedy("hi", 2)).await.unwrap().usage.unwrap().completion_tokens, 2);
}

#[tokio::test]
async fn a_missing_or_damaged_file_is_a_config_error_naming_it() {
    let err = LocalModel::open(LocalConfig::new("/nowhere/model.gguf", "x")).err().unwrap();
    assert_eq!(err.kind().as_str(), "config");
    assert!(err.to_string().contains("/nowhere/model.gguf"), "{err}");

    let dir = tempfile::tempdir().unwrap();
    let bad = dir.path().join("bad.gguf");
    std::fs::write(&bad, b"GGUF but not really a model").unwrap();
    let model = LocalModel::open(LocalConfig::new(&bad, "bad")).unwrap();
    let err = answer(&model, greedy("hi", 2)).await.unwrap_err();
    assert_eq!(err.kind().as_str(), "config");
    assert!(
        err.to_string().contains("bad.gguf") && err.to_string().contains("download it again"),
        "{err}"
    );
    assert!(model.info().await.is_err());
}
