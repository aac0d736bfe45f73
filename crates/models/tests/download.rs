//! The downloader against a real HTTP server on 127.0.0.1 (`vibe_test_support::FileServer`):
//! a fresh download, resume after a cut, a redirect before a resume, a server that ignores
//! Range, 416 for a whole file, a wrong checksum, no room up front, cancel, and a second
//! download of the same model (a disk that fills up mid-download: src/download_tests.rs).
//! Then adding a GGUF file by path and removing models.

use std::path::Path;
use std::sync::Mutex;

use tokio_util::sync::CancellationToken;
use vibe_models::{CatalogEntry, ModelsDir, ModelsError, Progress, Pulled, Source};
use vibe_test_support::{FileServer, gguf_bytes, sha256_hex};

const SIZE: usize = 300 * 1024;

fn entry(url: String, bytes: &[u8]) -> CatalogEntry {
    serde_json::from_value(vibe_test_support::catalog_entry(&url, bytes))
        .unwrap_or_else(|e| panic!("{e}"))
}

struct Setup {
    _tmp: tempfile::TempDir,
    dir: ModelsDir,
    server: FileServer,
    bytes: Vec<u8>,
    client: reqwest::Client,
}

fn setup() -> Setup {
    let tmp = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
    let dir = ModelsDir::new(tmp.path());
    let server = FileServer::start();
    let bytes = gguf_bytes(SIZE, 7);
    server.serve("/files/tiny.gguf", bytes.clone());
    Setup { _tmp: tmp, dir, server, bytes, client: vibe_models::http_client() }
}

async fn pull(s: &Setup, entry: &CatalogEntry) -> Result<Pulled, ModelsError> {
    vibe_models::pull(&s.dir, entry, &s.client, &CancellationToken::new(), &|_| {}).await
}

fn read(path: &Path) -> Vec<u8> {
    std::fs::read(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

fn part_len(s: &Setup, id: &str) -> u64 {
    s.dir.partial_bytes(id).unwrap_or_else(|| panic!("no partial file of {id}"))
}

#[tokio::test]
async fn a_download_is_verified_and_put_in_place_with_its_metadata_and_progress() {
    let s = setup();
    let entry = entry(s.server.url("/files/tiny.gguf"), &s.bytes);
    let seen = Mutex::new(Vec::<Progress>::new());
    let pulled = vibe_models::pull(&s.dir, &entry, &s.client, &CancellationToken::new(), &|p| {
        seen.lock().unwrap_or_else(|p| p.into_inner()).push(p)
    })
    .await
    .unwrap_or_else(|e| panic!("{e}"));
    assert!(!pulled.already_installed && pulled.resumed_from == 0 && !pulled.restarted);
    assert_eq!(read(&s.dir.model_file("tiny-q8_0")), s.bytes);
    assert_eq!(s.dir.partial_bytes("tiny-q8_0"), None, "the .part file is renamed away");
    let seen = seen.into_inner().unwrap_or_default();
    assert!(seen.len() >= 3, "progress while it runs: {seen:?}");
    assert!(seen.windows(2).all(|w| w[0].received <= w[1].received));
    assert_eq!(seen.last().map(|p| (p.received, p.total)), Some((SIZE as u64, SIZE as u64)));
    let meta = pulled.installed.meta.unwrap_or_else(|| panic!("no metadata"));
    assert_eq!(meta.sha256, sha256_hex(&s.bytes));
    assert_eq!(meta.source, Source::Catalog { url: entry.url.clone() });
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt as _;
        let mode = |p: &Path| std::fs::metadata(p).map(|m| m.permissions().mode() & 0o777).ok();
        assert_eq!(mode(&s.dir.model_file("tiny-q8_0")), Some(0o600));
        assert_eq!(mode(&s.dir.sidecar_file("tiny-q8_0")), Some(0o600));
        assert_eq!(mode(s.dir.path()), Some(0o700));
    }
    let again = pull(&s, &entry).await.unwrap_or_else(|e| panic!("{e}"));
    assert!(again.already_installed);
    assert_eq!(s.server.requests().len(), 1, "an installed model is not downloaded again");
}

#[tokio::test]
async fn a_cut_download_resumes_with_a_range_request() {
    let s = setup();
    let entry = entry(s.server.url("/files/tiny.gguf"), &s.bytes);
    s.server.cut_next_after(100_000);
    let err = pull(&s, &entry).await.err().unwrap_or_else(|| panic!("the cut went unnoticed"));
    assert!(matches!(err, ModelsError::Network { .. }), "{err}");
    assert!(err.to_string().contains("pull again to resume"), "{err}");
    let kept = part_len(&s, "tiny-q8_0");
    assert!(kept > 0 && kept <= 100_000, "kept {kept}");

    let pulled = pull(&s, &entry).await.unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(pulled.resumed_from, kept);
    assert!(!pulled.restarted);
    let requests = s.server.requests();
    assert_eq!(requests[1].header("range"), Some(format!("bytes={kept}-").as_str()));
    assert_eq!(read(&s.dir.model_file("tiny-q8_0")), s.bytes);
}

#[tokio::test]
async fn a_resume_follows_the_hubs_redirect_with_its_range() {
    let s = setup();
    s.server.redirect("/hub/tiny.gguf", "/files/tiny.gguf");
    let entry = entry(s.server.url("/hub/tiny.gguf"), &s.bytes);
    s.server.cut_next_after(50_000);
    assert!(pull(&s, &entry).await.is_err());
    let kept = part_len(&s, "tiny-q8_0");

    let pulled = pull(&s, &entry).await.unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(pulled.resumed_from, kept);
    let paths: Vec<_> = s.server.requests().iter().map(|r| r.path.clone()).collect();
    assert_eq!(paths, ["/hub/tiny.gguf", "/files/tiny.gguf", "/hub/tiny.gguf", "/files/tiny.gguf"]);
    let last = s.server.requests().pop().and_then(|r| r.header("range").map(str::to_string));
    assert_eq!(last, Some(format!("bytes={kept}-")), "the range survives the redirect");
    assert_eq!(read(&s.dir.model_file("tiny-q8_0")), s.bytes);
}

#[tokio::test]
async fn a_server_that_ignores_range_restarts_the_file_cleanly() {
    let s = setup();
    let entry = entry(s.server.url("/files/tiny.gguf"), &s.bytes);
    s.server.cut_next_after(120_000);
    assert!(pull(&s, &entry).await.is_err());
    s.server.ignore_ranges(true);
    let pulled = pull(&s, &entry).await.unwrap_or_else(|e| panic!("{e}"));
    assert!(pulled.restarted, "a 200 to a ranged request starts again");
    assert_eq!(read(&s.dir.model_file("tiny-q8_0")), s.bytes, "nothing appended twice");
}

#[tokio::test]
async fn a_whole_partial_file_answered_416_is_verified_and_installed() {
    let s = setup();
    let entry = entry(s.server.url("/files/tiny.gguf"), &s.bytes);
    s.dir.ensure().unwrap_or_else(|e| panic!("{e}"));
    std::fs::write(s.dir.part_file("tiny-q8_0"), &s.bytes).unwrap_or_else(|e| panic!("{e}"));
    let pulled = pull(&s, &entry).await.unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(pulled.resumed_from, SIZE as u64);
    assert_eq!(s.server.requests()[0].header("range"), Some(format!("bytes={SIZE}-").as_str()));
    assert_eq!(read(&s.dir.model_file("tiny-q8_0")), s.bytes);
}

#[tokio::test]
async fn a_wrong_checksum_is_a_clear_error_and_removes_the_partial_file() {
    let s = setup();
    let mut entry = entry(s.server.url("/files/tiny.gguf"), &s.bytes);
    entry.sha256 = sha256_hex(b"something else");
    let err = pull(&s, &entry).await.err().unwrap_or_else(|| panic!("a wrong file was accepted"));
    let text = err.to_string();
    assert!(matches!(err, ModelsError::ChecksumMismatch { .. }), "{text}");
    assert!(text.contains(&entry.sha256) && text.contains(&sha256_hex(&s.bytes)), "{text}");
    assert_eq!(s.dir.partial_bytes("tiny-q8_0"), None);
    assert!(!s.dir.model_file("tiny-q8_0").exists());
}

#[tokio::test]
async fn a_missing_file_names_the_status_and_the_url() {
    let s = setup();
    let entry = entry(s.server.url("/files/nope.gguf"), &s.bytes);
    let err = pull(&s, &entry).await.err().map(|e| e.to_string()).unwrap_or_default();
    assert!(err.contains("HTTP 404") && err.contains("/files/nope.gguf"), "{err}");
}

#[tokio::test]
async fn a_download_that_cannot_fit_is_refused_before_anything_is_written() {
    let s = setup();
    let mut entry = entry(s.server.url("/files/tiny.gguf"), &s.bytes);
    entry.size_bytes = 1 << 60;
    let err = pull(&s, &entry).await.err().unwrap_or_else(|| panic!("an exabyte fitted"));
    assert!(matches!(err, ModelsError::NoSpace { .. }), "{err}");
    assert!(err.to_string().contains("free some space"), "{err}");
    assert_eq!(s.dir.partial_bytes("tiny-q8_0"), None);
    assert!(s.server.requests().is_empty(), "nothing was requested");
}

#[tokio::test]
async fn cancel_stops_the_download_and_keeps_what_came_for_the_next_pull() {
    let s = setup();
    let entry = entry(s.server.url("/files/tiny.gguf"), &s.bytes);
    let cancel = CancellationToken::new();
    let err = vibe_models::pull(&s.dir, &entry, &s.client, &cancel, &|p| {
        if p.received > 0 {
            cancel.cancel();
        }
    })
    .await
    .err()
    .unwrap_or_else(|| panic!("cancel was ignored"));
    assert!(matches!(err, ModelsError::Cancelled { .. }), "{err}");
    assert!(!s.dir.model_file("tiny-q8_0").exists());
    let kept = part_len(&s, "tiny-q8_0");
    assert!(kept > 0);
    let pulled = pull(&s, &entry).await.unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(pulled.resumed_from, kept);
    assert_eq!(read(&s.dir.model_file("tiny-q8_0")), s.bytes);
}

#[tokio::test]
async fn a_model_being_downloaded_can_be_neither_pulled_twice_nor_removed() {
    let s = setup();
    let entry = entry(s.server.url("/files/tiny.gguf"), &s.bytes);
    s.dir.ensure().unwrap_or_else(|e| panic!("{e}"));
    let part =
        std::fs::File::create(s.dir.part_file("tiny-q8_0")).unwrap_or_else(|e| panic!("{e}"));
    part.lock().unwrap_or_else(|e| panic!("{e}"));
    let err = pull(&s, &entry).await.err().unwrap_or_else(|| panic!("pulled twice"));
    assert!(matches!(err, ModelsError::Busy { .. }), "{err}");
    let err = s.dir.remove("tiny-q8_0").err().unwrap_or_else(|| panic!("removed under a download"));
    assert!(matches!(err, ModelsError::Busy { .. }), "{err}");
    drop(part);
    let removed = s.dir.remove("tiny-q8_0").unwrap_or_else(|e| panic!("{e}"));
    assert!(!removed.installed);
}

#[test]
fn a_gguf_file_is_added_by_path_and_removed() {
    let tmp = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
    let dir = ModelsDir::new(&tmp.path().join("data"));
    let bytes = gguf_bytes(10_000, 3);
    let source = tmp.path().join("My Model Q8_0.gguf");
    std::fs::write(&source, &bytes).unwrap_or_else(|e| panic!("{e}"));

    let added = vibe_models::add_file(&dir, &source, None).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(added.id, "my-model-q8_0");
    assert_eq!(read(&added.path), bytes);
    let meta = added.meta.unwrap_or_else(|| panic!("no metadata"));
    assert_eq!(meta.sha256, sha256_hex(&bytes));
    assert_eq!(meta.source, Source::File { path: source.display().to_string() });
    let err = vibe_models::add_file(&dir, &source, None).err().map(|e| e.to_string());
    assert!(err.unwrap_or_default().contains("already installed"));
    let named =
        vibe_models::add_file(&dir, &source, Some("mine")).unwrap_or_else(|e| panic!("{e}"));
    let ids: Vec<_> = dir.installed().unwrap_or_default().into_iter().map(|m| m.id).collect();
    assert_eq!(ids, ["mine", "my-model-q8_0"]);

    let text = tmp.path().join("notes.gguf");
    std::fs::write(&text, "hello").unwrap_or_else(|e| panic!("{e}"));
    let err = vibe_models::add_file(&dir, &text, None).err().map(|e| e.to_string());
    assert!(err.unwrap_or_default().contains("is not a GGUF model file"));
    let bad_id = vibe_models::add_file(&dir, &source, Some("../x")).err().map(|e| e.to_string());
    assert!(bad_id.unwrap_or_default().contains("cannot be a model id"));

    let removed = dir.remove(&named.id).unwrap_or_else(|e| panic!("{e}"));
    assert!(removed.installed && removed.bytes == bytes.len() as u64);
    assert!(!dir.sidecar_file("mine").exists());
    let err = dir.remove("mine").err().map(|e| e.to_string()).unwrap_or_default();
    assert!(err.contains("no installed model \"mine\""), "{err}");
}
