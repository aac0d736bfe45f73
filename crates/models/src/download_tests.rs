//! A disk that fills up mid-download, simulated (`pull_within`'s room) so the test runs
//! everywhere, unlike a small tmpfs that needs mount rights: the error says the disk is full
//! and what to do, the partial file is kept, and the next pull resumes from it.

use tokio_util::sync::CancellationToken;
use vibe_test_support::FileServer;

use super::{pull, pull_within};
use crate::catalog::CatalogEntry;
use crate::dir::ModelsDir;
use crate::error::ModelsError;

const SIZE: usize = 300 * 1024;

fn entry(url: String, bytes: &[u8]) -> CatalogEntry {
    serde_json::from_value(vibe_test_support::catalog_entry(&url, bytes))
        .unwrap_or_else(|e| panic!("{e}"))
}

#[tokio::test]
async fn a_disk_that_fills_up_mid_download_keeps_the_partial_file_to_resume() {
    let tmp = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
    let dir = ModelsDir::new(tmp.path());
    let server = FileServer::start();
    let bytes = vibe_test_support::gguf_bytes(SIZE, 7);
    server.serve("/files/tiny.gguf", bytes.clone());
    let entry = entry(server.url("/files/tiny.gguf"), &bytes);
    let client = super::http_client();
    let cancel = CancellationToken::new();

    let err = pull_within(&dir, &entry, &client, &cancel, &|_| {}, Some(100_000))
        .await
        .err()
        .unwrap_or_else(|| panic!("a full disk went unnoticed"));
    assert!(matches!(err, ModelsError::DiskFull { .. }), "{err}");
    assert!(err.to_string().contains("filled up"), "{err}");
    assert!(err.to_string().contains("free some space and pull again"), "{err}");
    assert_eq!(dir.partial_bytes("tiny-q8_0"), Some(100_000), "the partial file is kept");
    assert!(!dir.model_file("tiny-q8_0").exists());

    // Space freed: the next pull resumes where the disk filled up.
    let pulled =
        pull(&dir, &entry, &client, &cancel, &|_| {}).await.unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(pulled.resumed_from, 100_000);
    assert_eq!(std::fs::read(&pulled.installed.path).unwrap_or_default(), bytes);
}
