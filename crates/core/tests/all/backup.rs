//! Private by default, the second half (docs/privacy.md): deleting a conversation removes its
//! run folders and its saved prompt state; backups round-trip (backup → verify → restore gives byte-identical exports);
//! a tampered backup fails its check; a backup of a newer schema is refused and changes
//! nothing; erase leaves nothing behind. Real data dirs encrypted with a passphrase (no
//! keychain on a test machine), real turns against the fake server.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use serde_json::json;
use sha2::Digest;
use tokio::sync::mpsc;
use vibe_core::app::{App, AppPaths, EphemeralKeys, KeyStore, Overrides};
use vibe_runlog::emit::ChannelSink;
use vibe_test_support::{FakeServer, Reply, ev_finish, ev_text, sse};
use vibe_wire::ErrorKind;
use vibe_wire::command::{
    BackupFileRequest, BackupManifest, CreateBackupRequest, DeleteConversationRequest,
    EraseRequest, ExportAllRequest, ReplayRunRequest, SendMessageRequest, SetProfilePathRequest,
};

const SECRET: &str = "我从没对人说过的秘密";
const PASSPHRASE: &str = "backup test passphrase";

fn overrides() -> Overrides {
    Overrides {
        db_passphrase: Some(zeroize::Zeroizing::new(PASSPHRASE.into())),
        ..Overrides::default()
    }
}

fn keys() -> Arc<dyn KeyStore> {
    Arc::new(EphemeralKeys::default())
}

fn open(dir: &Path) -> App {
    App::open_with_keys(AppPaths::new(dir), overrides(), keys()).unwrap()
}

/// One turn saying `text`, answered by the fake server: (conversation id, run id).
async fn turn(app: &App, server: &FakeServer, text: &str) -> (String, String) {
    server.push(Reply::sse(sse(vec![ev_text("我听到了："), ev_text(text), ev_finish("stop")])));
    let changes = [("llm.base_url", json!(server.url())), ("llm.model", json!("test-model"))]
        .iter()
        .map(|(k, v)| vibe_wire::command::SettingChange { key: (*k).into(), value: v.clone() })
        .collect();
    app.update_settings(vibe_wire::command::UpdateSettingsRequest { changes }).unwrap();
    let (tx, _rx) = mpsc::unbounded_channel();
    let done = app
        .send_message(SendMessageRequest::say(None, text), Arc::new(ChannelSink(tx)))
        .await
        .unwrap();
    (done.conversation_id, done.run_id)
}

/// Every file under `dir`, by relative path, with its bytes.
fn files(dir: &Path) -> BTreeMap<String, Vec<u8>> {
    let mut out = BTreeMap::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for entry in std::fs::read_dir(&d).into_iter().flatten().flatten() {
            let path = entry.path();
            if path.is_dir() {
                stack.push(path);
            } else {
                let rel = path.strip_prefix(dir).unwrap().display().to_string();
                out.insert(rel, std::fs::read(&path).unwrap());
            }
        }
    }
    out
}

fn holds(bytes: &[u8], text: &str) -> bool {
    bytes.windows(text.len()).any(|w| w == text.as_bytes())
}

fn export(app: &App, out: &Path) -> BTreeMap<String, Vec<u8>> {
    app.export_all(&ExportAllRequest { out: out.display().to_string() }).unwrap();
    files(out)
}

#[tokio::test]
async fn deleting_a_conversation_removes_its_run_folders_and_their_replay_fails_clearly() {
    let server = FakeServer::start();
    let dir = tempfile::tempdir().unwrap();
    let app = open(dir.path());
    let (conversation, run) = turn(&app, &server, SECRET).await;
    let (other, other_run) = turn(&app, &server, "别的话").await;
    assert_ne!(conversation, other);
    let runs = dir.path().join("runs");
    assert!(!files(&runs).values().any(|b| holds(b, SECRET)), "the run logs are sealed");
    let replay = app.replay_run(&ReplayRunRequest { id: run.clone() }).unwrap();
    let replayed = serde_json::to_vec(&replay.events).unwrap();
    assert!(holds(&replayed, SECRET), "the run log holds the text, readable through the app");

    // The embedded engine's saved prompt states of both (docs/local-model.md#saved-states).
    let states = dir.path().join(vibe_local_llm::STATES_DIR);
    let state = |id: &str| vibe_local_llm::saved_state::state_file(&states, id);
    std::fs::create_dir_all(&states).unwrap();
    std::fs::write(state(&conversation), b"sealed state").unwrap();
    std::fs::write(state(&other), b"sealed state").unwrap();

    let deleted =
        app.delete_conversation(&DeleteConversationRequest { id: conversation.clone() }).unwrap();
    assert_eq!(deleted.runs_removed, vec![run.clone()]);
    assert!(!state(&conversation).exists(), "its saved prompt state is gone");
    assert!(state(&other).exists(), "another conversation's state stays");
    assert!(!runs.join(&run).exists(), "the run folder is gone");
    assert!(runs.join(&other_run).exists(), "another conversation's run stays");
    assert!(!files(&runs).values().any(|b| holds(b, SECRET)), "no byte of runs/ holds the text");
    let err = app.replay_run(&ReplayRunRequest { id: run.clone() }).unwrap_err();
    assert_eq!(err.kind(), ErrorKind::NotFound, "{err}");
    assert!(err.to_string().contains(&run), "{err}");
    app.replay_run(&ReplayRunRequest { id: other_run }).unwrap();
}

#[tokio::test]
async fn backup_verify_restore_round_trips_a_byte_identical_export() {
    let server = FakeServer::start();
    let dir = tempfile::tempdir().unwrap();
    let work = tempfile::tempdir().unwrap();
    let paths = AppPaths::new(dir.path());
    let app = open(dir.path());
    let (_, first_run) = turn(&app, &server, SECRET).await;
    app.set_profile_path(&SetProfilePathRequest {
        path: "birth_info.date".into(),
        value: json!("1990-05-17"),
    })
    .unwrap();
    app.store()
        .start_protocol_run(&vibe_store::NewProtocolRun {
            id: "pr1",
            user: vibe_store::LOCAL_USER,
            skill: "lifecoach",
            protocol_id: "weekly",
            protocol_version: 1,
            total_steps: 3,
            conversation_id: None,
            model: None,
            now: "2026-01-20T10:00:00Z",
        })
        .unwrap();
    let before = export(&app, &work.path().join("before"));
    assert!(before.keys().any(|k| k.starts_with("conversations/") && k.ends_with(".md")));
    assert!(before.contains_key("protocol-runs/pr1.json"), "{:?}", before.keys());
    assert!(before.contains_key("skill-states/lifecoach.json"), "{:?}", before.keys());
    assert!(before.contains_key("profile.json") && before.contains_key("memory.json"));
    let log = &before[&format!("runs/{first_run}/events.jsonl")];
    assert!(holds(log, SECRET) && holds(log, "run_finished"), "the run log, opened, in clear");

    let file = work.path().join("b.tar");
    let created =
        app.create_backup(&CreateBackupRequest { out: Some(file.display().to_string()) }).unwrap();
    assert!(created.manifest.files.iter().any(|f| f.path.starts_with("runs/")));
    assert!(!holds(&std::fs::read(&file).unwrap()[..], "1990-05-17"), "the database is encrypted");
    assert!(!holds(&std::fs::read(&file).unwrap()[..], SECRET), "and so are the run folders");
    let again = app.create_backup(&CreateBackupRequest { out: Some(file.display().to_string()) });
    assert_eq!(again.unwrap_err().kind(), ErrorKind::InvalidInput, "never over a file");

    // Changes after the backup, which the restore undoes.
    let (later, later_run) = turn(&app, &server, "后来说的话").await;
    let conversations = app.list_conversations().unwrap().conversations;
    app.delete_conversation(&DeleteConversationRequest { id: conversations[1].id.clone() })
        .unwrap();
    assert_eq!(conversations[0].id, later);
    drop(app);

    let request = BackupFileRequest { file: file.display().to_string() };
    let verified = App::verify_backup(&paths, &overrides(), keys().as_ref(), &request).unwrap();
    assert!(verified.restorable);
    assert_eq!(verified.manifest, created.manifest);
    let restored = App::restore_backup(&paths, &overrides(), keys().as_ref(), &request).unwrap();
    let previous = PathBuf::from(restored.previous.unwrap());
    assert!(previous.starts_with(dir.path().join("backups")), "{}", previous.display());
    App::verify_backup(
        &paths,
        &overrides(),
        keys().as_ref(),
        &BackupFileRequest { file: previous.display().to_string() },
    )
    .unwrap();
    assert!(!dir.path().join("restore.staging").exists());

    let app = open(dir.path());
    let after = export(&app, &work.path().join("after"));
    assert_eq!(after.keys().collect::<Vec<_>>(), before.keys().collect::<Vec<_>>());
    assert!(after == before, "the restored data exports byte for byte as before");
    assert!(!dir.path().join("runs").join(&later_run).exists(), "later runs are gone");
    let replay = app.replay_run(&ReplayRunRequest { id: first_run }).unwrap();
    assert!(holds(&serde_json::to_vec(&replay.events).unwrap(), SECRET), "restored runs read");
}

/// The backup's entries: (manifest, [(path, bytes)]).
fn read_backup(file: &Path) -> (BackupManifest, Vec<(String, Vec<u8>)>) {
    use std::io::Read;
    let mut archive = tar::Archive::new(std::fs::File::open(file).unwrap());
    let mut manifest = None;
    let mut entries = Vec::new();
    for entry in archive.entries().unwrap() {
        let mut entry = entry.unwrap();
        let path = entry.path().unwrap().display().to_string();
        let mut bytes = Vec::new();
        entry.read_to_end(&mut bytes).unwrap();
        if path == "manifest.json" {
            manifest = Some(serde_json::from_slice(&bytes).unwrap());
        } else {
            entries.push((path, bytes));
        }
    }
    (manifest.unwrap(), entries)
}

fn write_backup(file: &Path, manifest: &BackupManifest, entries: &[(String, Vec<u8>)]) {
    let mut tar = tar::Builder::new(std::fs::File::create(file).unwrap());
    let mut put = |path: &str, bytes: &[u8]| {
        let mut header = tar::Header::new_gnu();
        header.set_size(bytes.len() as u64);
        header.set_mode(0o600);
        tar.append_data(&mut header, path, bytes).unwrap();
    };
    put("manifest.json", &serde_json::to_vec_pretty(manifest).unwrap());
    for (path, bytes) in entries {
        put(path, bytes);
    }
    tar.finish().unwrap();
}

fn sha256(bytes: &[u8]) -> String {
    hex::encode(sha2::Sha256::digest(bytes))
}

#[tokio::test]
async fn a_tampered_backup_fails_verify_and_is_not_restored() {
    let server = FakeServer::start();
    let dir = tempfile::tempdir().unwrap();
    let work = tempfile::tempdir().unwrap();
    let paths = AppPaths::new(dir.path());
    let app = open(dir.path());
    turn(&app, &server, SECRET).await;
    let file = work.path().join("b.tar");
    app.create_backup(&CreateBackupRequest { out: Some(file.display().to_string()) }).unwrap();
    drop(app);
    let (manifest, entries) = read_backup(&file);
    let check = |name: &str, manifest: &BackupManifest, entries: &[(String, Vec<u8>)]| {
        let bad = work.path().join(name);
        write_backup(&bad, manifest, entries);
        let request = BackupFileRequest { file: bad.display().to_string() };
        let err = App::verify_backup(&paths, &overrides(), keys().as_ref(), &request).unwrap_err();
        assert_eq!(err.kind(), ErrorKind::InvalidBackup, "{name}: {err}");
        let err = App::restore_backup(&paths, &overrides(), keys().as_ref(), &request).unwrap_err();
        assert_eq!(err.kind(), ErrorKind::InvalidBackup, "{name}: {err}");
        err.to_string()
    };
    let db_before = std::fs::read(dir.path().join("vibe.db")).unwrap();

    // One byte of the database copy changed.
    let mut flipped = entries.clone();
    let db = flipped.iter_mut().find(|(p, _)| p == "vibe.db").unwrap();
    let at = db.1.len() / 2;
    db.1[at] ^= 0x01;
    let msg = check("flipped.tar", &manifest, &flipped);
    assert!(msg.contains("vibe.db does not match its checksum"), "{msg}");

    // The manifest's row counts changed.
    let mut counted = manifest.clone();
    *counted.counts.get_mut("messages").unwrap() += 1;
    let msg = check("counts.tar", &counted, &entries);
    assert!(msg.contains("rows per table"), "{msg}");

    // A run file dropped.
    let dropped: Vec<_> = entries.iter().filter(|(p, _)| p == "vibe.db").cloned().collect();
    let msg = check("dropped.tar", &manifest, &dropped);
    assert!(msg.contains("is missing"), "{msg}");

    // The database copy replaced by another with its checksum fixed: SQLCipher's page
    // authentication fails.
    let mut forged = entries.clone();
    let mut forged_manifest = manifest.clone();
    let db = forged.iter_mut().find(|(p, _)| p == "vibe.db").unwrap();
    db.1[at] ^= 0x01;
    forged_manifest.files.iter_mut().find(|f| f.path == "vibe.db").unwrap().sha256 = sha256(&db.1);
    check("forged.tar", &forged_manifest, &forged);

    assert_eq!(std::fs::read(dir.path().join("vibe.db")).unwrap(), db_before, "nothing changed");
    assert!(!dir.path().join("backups").exists(), "no restore got as far as a backup");
}

#[tokio::test]
async fn a_backup_of_a_newer_schema_is_refused_and_changes_nothing() {
    let server = FakeServer::start();
    let dir = tempfile::tempdir().unwrap();
    let work = tempfile::tempdir().unwrap();
    let paths = AppPaths::new(dir.path());
    let app = open(dir.path());
    turn(&app, &server, SECRET).await;
    let file = work.path().join("b.tar");
    app.create_backup(&CreateBackupRequest { out: Some(file.display().to_string()) }).unwrap();
    drop(app);

    // The same backup as a newer VibeLife would write it: its database one schema ahead.
    let (mut manifest, mut entries) = read_backup(&file);
    let copy = work.path().join("copy.db");
    let db = entries.iter_mut().find(|(p, _)| p == "vibe.db").unwrap();
    std::fs::write(&copy, &db.1).unwrap();
    let newer = vibe_store::latest_version() + 1;
    {
        vibe_store::sqlite_ready();
        let conn = rusqlite::Connection::open(&copy).unwrap();
        conn.pragma_update(None, "key", PASSPHRASE).unwrap();
        conn.pragma_update(None, "journal_mode", "DELETE").unwrap();
        conn.pragma_update(None, "user_version", newer).unwrap();
    }
    db.1 = std::fs::read(&copy).unwrap();
    manifest.schema_version = newer;
    let entry = manifest.files.iter_mut().find(|f| f.path == "vibe.db").unwrap();
    entry.sha256 = sha256(&db.1);
    entry.bytes = db.1.len() as u64;
    let newer_file = work.path().join("newer.tar");
    write_backup(&newer_file, &manifest, &entries);

    let request = BackupFileRequest { file: newer_file.display().to_string() };
    let verified = App::verify_backup(&paths, &overrides(), keys().as_ref(), &request).unwrap();
    assert!(!verified.restorable);
    let before = files(dir.path());
    let err = App::restore_backup(&paths, &overrides(), keys().as_ref(), &request).unwrap_err();
    assert_eq!(err.kind(), ErrorKind::NewerSchema, "{err}");
    assert!(err.to_string().contains("Nothing was changed"), "{err}");
    let after = files(dir.path());
    assert!(!after.contains_key("restore.lock"), "a refused restore leaves nothing, not a lock");
    assert_eq!(after.keys().collect::<Vec<_>>(), before.keys().collect::<Vec<_>>());
    assert!(after == before, "not a byte of the data folder changed");
}

#[tokio::test]
async fn erase_says_what_it_would_remove_then_leaves_nothing_behind() {
    let server = FakeServer::start();
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("data");
    let paths = AppPaths::new(&data);
    let keys: Arc<EphemeralKeys> = Arc::new(EphemeralKeys::default());
    let app = App::open_with_keys(paths.clone(), Overrides::default(), keys.clone()).unwrap();
    turn(&app, &server, SECRET).await;
    app.create_backup(&CreateBackupRequest::default()).unwrap();
    let account = vibe_core::app::db_key_account(&data);
    assert!(keys.get_db_key(&account).unwrap().is_some());

    let err = App::erase_data(&paths, keys.as_ref(), EraseRequest { confirm: true }).unwrap_err();
    assert_eq!(err.kind(), ErrorKind::InUse, "refused while the app is open: {err}");
    drop(app);

    let dry = App::erase_data(&paths, keys.as_ref(), EraseRequest { confirm: false }).unwrap();
    assert!(!dry.erased);
    for name in ["vibe.db", "runs", "backups", "settings.json"] {
        let path = data.join(name).display().to_string();
        assert!(dry.files.contains(&path), "{name} in {:?}", dry.files);
    }
    assert_eq!(dry.keychain_entries.len(), 1);
    assert!(data.join("vibe.db").exists(), "a dry run removes nothing");
    assert!(keys.get_db_key(&account).unwrap().is_some());

    let done = App::erase_data(&paths, keys.as_ref(), EraseRequest { confirm: true }).unwrap();
    assert!(done.erased);
    assert_eq!(done.keychain_entries.len(), 1);
    assert!(!data.exists(), "the data folder is gone: {:?}", files(&data));
    assert!(keys.get_db_key(&account).unwrap().is_none(), "the key is gone");
    assert!(std::fs::read_dir(dir.path()).unwrap().next().is_none(), "nothing left beside it");
}

#[tokio::test]
async fn a_damaged_database_is_replaced_by_the_backup_and_kept_as_it_was() {
    let server = FakeServer::start();
    let dir = tempfile::tempdir().unwrap();
    let work = tempfile::tempdir().unwrap();
    let paths = AppPaths::new(dir.path());
    let app = open(dir.path());
    turn(&app, &server, SECRET).await;
    let before = export(&app, &work.path().join("before"));
    let file = work.path().join("b.tar");
    app.create_backup(&CreateBackupRequest { out: Some(file.display().to_string()) }).unwrap();
    drop(app);

    // Every page after the first two overwritten: the database cannot be read whole.
    let db = dir.path().join("vibe.db");
    let mut bytes = std::fs::read(&db).unwrap();
    for b in &mut bytes[8192..] {
        *b = 0x5a;
    }
    std::fs::write(&db, &bytes).unwrap();

    let request = BackupFileRequest { file: file.display().to_string() };
    let restored = App::restore_backup(&paths, &overrides(), keys().as_ref(), &request).unwrap();
    let kept = PathBuf::from(restored.previous.unwrap());
    assert_eq!(std::fs::read(kept.join("vibe.db")).unwrap(), bytes, "kept byte for byte");
    assert!(kept.join("runs").is_dir());
    let app = open(dir.path());
    assert!(export(&app, &work.path().join("after")) == before);
}

#[test]
fn an_automatic_backup_is_made_once_a_day_and_the_newest_are_kept() {
    let dir = tempfile::tempdir().unwrap();
    let app = open(dir.path());
    let changes =
        vec![vibe_wire::command::SettingChange { key: "backups.keep".into(), value: json!(2) }];
    app.update_settings(vibe_wire::command::UpdateSettingsRequest { changes }).unwrap();
    let day = vibe_core::app::AUTO_BACKUP_EVERY;
    let start = std::time::SystemTime::now();
    let autos = || {
        let mut names: Vec<String> = std::fs::read_dir(dir.path().join("backups"))
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        names.sort();
        names
    };
    let first = app.backup_if_due(start).unwrap().expect("none yet: due");
    assert!(app.backup_if_due(start).unwrap().is_none(), "not due again the same day");
    assert_eq!(autos().len(), 1);
    let request = BackupFileRequest { file: first.file.clone() };
    App::verify_backup(&AppPaths::new(dir.path()), &overrides(), keys().as_ref(), &request)
        .unwrap();
    app.backup_if_due(start + day + day / 24).unwrap().expect("a day later: due");
    app.backup_if_due(start + 3 * day).unwrap().expect("due again");
    let kept = autos();
    assert_eq!(kept.len(), 2, "{kept:?}");
    assert!(!kept.iter().any(|n| first.file.ends_with(n.as_str())), "the oldest went: {kept:?}");

    let changes = vec![vibe_wire::command::SettingChange {
        key: "backups.daily".into(),
        value: json!(false),
    }];
    app.update_settings(vibe_wire::command::UpdateSettingsRequest { changes }).unwrap();
    assert!(app.backup_if_due(start + 10 * day).unwrap().is_none(), "off");
}

#[tokio::test]
async fn checking_or_restoring_a_backup_in_a_fresh_keychain_folder_creates_nothing() {
    let server = FakeServer::start();
    let dir = tempfile::tempdir().unwrap();
    let work = tempfile::tempdir().unwrap();
    let app = open(dir.path());
    turn(&app, &server, SECRET).await;
    let file = work.path().join("b.tar");
    app.create_backup(&CreateBackupRequest { out: Some(file.display().to_string()) }).unwrap();
    drop(app);

    let fresh = work.path().join("fresh");
    let paths = AppPaths::new(&fresh);
    let keys: Arc<EphemeralKeys> = Arc::new(EphemeralKeys::default());
    let request = BackupFileRequest { file: file.display().to_string() };
    let err =
        App::verify_backup(&paths, &Overrides::default(), keys.as_ref(), &request).unwrap_err();
    assert_eq!(err.kind(), ErrorKind::NoDatabaseKey, "{err}");
    assert!(err.to_string().contains("nothing was created"), "{err}");
    let err =
        App::restore_backup(&paths, &Overrides::default(), keys.as_ref(), &request).unwrap_err();
    assert_eq!(err.kind(), ErrorKind::NoDatabaseKey, "{err}");
    let account = vibe_core::app::db_key_account(&fresh);
    assert!(keys.get_db_key(&account).unwrap().is_none(), "no key was made");
    assert!(!fresh.exists(), "no data folder was made");

    // With the passphrase it was made with, a folder that does not exist yet checks it too.
    let verified = App::verify_backup(&paths, &overrides(), keys.as_ref(), &request).unwrap();
    assert!(verified.restorable);
    assert!(!fresh.exists());
}

#[tokio::test]
async fn a_backup_whose_run_folders_its_database_cannot_open_is_refused() {
    let server = FakeServer::start();
    let dir = tempfile::tempdir().unwrap();
    let work = tempfile::tempdir().unwrap();
    let app = open(dir.path());
    turn(&app, &server, SECRET).await;
    let file = work.path().join("b.tar");
    app.create_backup(&CreateBackupRequest { out: Some(file.display().to_string()) }).unwrap();
    // Another folder's sealed log (another run-folder key) put in its place, checksum fixed.
    let other = tempfile::tempdir().unwrap();
    let other_app = open(other.path());
    let (_, other_run) = turn(&other_app, &server, "别处的话").await;
    let foreign =
        std::fs::read(other.path().join("runs").join(&other_run).join("events.jsonl")).unwrap();
    let (mut manifest, mut entries) = read_backup(&file);
    let (path, bytes) = entries.iter_mut().find(|(p, _)| p.ends_with("events.jsonl")).unwrap();
    *bytes = foreign;
    let entry = manifest.files.iter_mut().find(|f| &f.path == path).unwrap();
    entry.sha256 = sha256(bytes);
    entry.bytes = bytes.len() as u64;
    let path = path.clone();
    let forged = work.path().join("forged.tar");
    write_backup(&forged, &manifest, &entries);

    let request = BackupFileRequest { file: forged.display().to_string() };
    let paths = AppPaths::new(dir.path());
    let err = App::verify_backup(&paths, &overrides(), keys().as_ref(), &request).unwrap_err();
    assert_eq!(err.kind(), ErrorKind::InvalidBackup, "{err}");
    assert!(err.to_string().contains(&format!("{path} is sealed with a key")), "{err}");
}
