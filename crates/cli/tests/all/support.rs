//! Helpers shared by the CLI scenario tests: the one way to build a `vibe` command (with every
//! `VIBE_*` variable of the surrounding environment removed), running it in a data dir, reading
//! its `--json` output and writing files into a data dir. Helpers that only one command family
//! uses stay in that family's module; helpers the core tests share belong in vibe-test-support.

use std::path::Path;
use std::process::{Command as StdCommand, Output};

use assert_cmd::Command;
use assert_cmd::cargo::CommandCargoExt as _;
use serde_json::Value;

/// The repository's built-in skills folder.
pub const BUILTIN: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../../skills");

/// A private stand-in for the user's XDG folders, one per test process: a command run without
/// `--data-dir` finds its default data dir here, never in the real home (whose settings or
/// database would otherwise change the suite, or be changed by it).
fn private_xdg() -> &'static Path {
    static DIR: std::sync::OnceLock<tempfile::TempDir> = std::sync::OnceLock::new();
    DIR.get_or_init(|| tempfile::tempdir().unwrap()).path()
}

/// The database passphrase every test data dir is encrypted with: a test machine has no OS
/// keychain, so the suite runs the passphrase mode (the keychain mode is the core tests').
pub const PASSPHRASE: &str = "test passphrase: correct horse battery staple";

/// `vibe` as a plain process command, with every `VIBE_*` variable of the test's environment
/// removed: a test sets the ones it needs, so a developer's shell cannot change the suite. It
/// sets two: the built-in skills pinned to the repository's [`BUILTIN`] folder (what a
/// development build finds anyway), so an installed copy cannot change the suite either, and
/// the database passphrase [`PASSPHRASE`]. It points the XDG folders at [`private_xdg`], so
/// the real home's data dir is never read or written.
pub fn vibe_std() -> StdCommand {
    let mut cmd = StdCommand::cargo_bin("vibe").unwrap();
    for (name, _) in std::env::vars_os() {
        if name.to_string_lossy().starts_with("VIBE_") {
            cmd.env_remove(name);
        }
    }
    // The tests name the locale with LANG; a machine's LC_ALL would override it.
    cmd.env_remove("LC_ALL");
    cmd.env("VIBE_BUILTIN_SKILLS_DIR", BUILTIN);
    cmd.env("VIBE_DB_PASSPHRASE", PASSPHRASE);
    for (var, sub) in
        [("XDG_DATA_HOME", "data"), ("XDG_CONFIG_HOME", "config"), ("XDG_CACHE_HOME", "cache")]
    {
        cmd.env(var, private_xdg().join(sub));
    }
    cmd
}

/// The data dir's database, opened directly with the test passphrase.
pub fn db(dir: &Path) -> rusqlite::Connection {
    vibe_store::sqlite_ready();
    let conn = rusqlite::Connection::open(dir.join("vibe.db")).unwrap();
    // SQLCipher 4's defaults: the key alone (docs/privacy.md#page-format).
    conn.pragma_update(None, "key", PASSPHRASE).unwrap();
    conn
}

/// The data dir's store, opened with the test passphrase.
pub fn store(dir: &Path) -> vibe_store::Store {
    vibe_store::Store::open_with_key(
        &dir.join("vibe.db"),
        &vibe_store::DbKey::passphrase(PASSPHRASE),
    )
    .unwrap()
}

/// The run folders of `dir` sealed as `vibe` seals them: with the data folder's run-folder key
/// (stored now when its database has none).
pub fn sealed_runs(dir: &Path) -> vibe_core::audit::RunFolders {
    let raw = store(dir).run_file_key(&[7; 32]).unwrap();
    vibe_core::audit::RunFolders::new(dir, Some(vibe_core::audit::RunKey::new(&raw)))
}

/// What every fabricated run used: 100 prompt and 20 completion tokens.
pub const USAGE: vibe_wire::TokenUsage =
    vibe_wire::TokenUsage { prompt_tokens: 100, completion_tokens: 20, total_tokens: 120 };

/// A finished run in a new conversation, as the agent loop leaves one: its row made with the
/// store API, the events `events(conversation, audit)` gives written by a `RunAudit` of `runs`
/// through an `Emitter` (each event its own sealed record when `record_per_event`). Returns
/// the conversation id.
pub fn fabricate_run(
    runs: &vibe_core::audit::RunFolders,
    dir: &Path,
    run_id: &str,
    record_per_event: bool,
    events: impl FnOnce(&str, &vibe_core::audit::RunAudit) -> Vec<vibe_wire::Event>,
) -> String {
    let store = store(dir);
    let conv = store.create_conversation(vibe_store::LOCAL_USER, Some("test")).unwrap().id;
    store.create_run(run_id, Some(&conv)).unwrap();
    let audit = std::sync::Arc::new(runs.create(run_id).unwrap());
    let emitter = vibe_core::emit::Emitter::new(run_id, vec![audit.clone()]);
    for event in events(&conv, &audit) {
        emitter.emit(event);
        if record_per_event {
            audit.flush();
        }
    }
    assert!(audit.error().is_none());
    drop(emitter);
    drop(audit);
    store
        .finish_run(
            run_id,
            vibe_wire::RunStatus::Completed,
            vibe_wire::StopReason::MaxRounds,
            &serde_json::to_value(USAGE).unwrap(),
        )
        .unwrap();
    conv
}

/// [`vibe_std`] as an `assert_cmd` command (timeouts, piped stdin).
pub fn vibe() -> Command {
    Command::from_std(vibe_std())
}

/// `vibe --data-dir DIR`.
pub fn in_dir(dir: &Path) -> Command {
    let mut cmd = vibe();
    cmd.arg("--data-dir").arg(dir);
    cmd
}

/// `vibe --data-dir DIR ARGS...`, run to its end.
pub fn run(dir: &Path, args: &[&str]) -> Output {
    in_dir(dir).args(args).output().unwrap()
}

/// Runs `CMD --json ARGS...`, asserts it succeeded and parses its stdout as one JSON value.
pub fn ok_json(cmd: &mut Command, args: &[&str]) -> Value {
    let out = cmd.arg("--json").args(args).output().unwrap();
    assert!(out.status.success(), "{args:?}: {}", String::from_utf8_lossy(&out.stderr));
    serde_json::from_slice(&out.stdout).unwrap()
}

/// Runs `vibe --data-dir DIR --json ARGS...` like [`ok_json`].
pub fn ok_json_in(dir: &Path, args: &[&str]) -> Value {
    ok_json(&mut in_dir(dir), args)
}

/// Writes `text` to `root/rel`, creating the folders on the way (a skill folder's files, a
/// model script).
pub fn write(root: &Path, rel: &str, text: &str) {
    let path = root.join(rel);
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(path, text).unwrap();
}

/// The user skill `DATA/skills/helper`, whose only tool is `run_script`, with one script
/// `scripts/SCRIPT` holding `body`.
pub fn write_helper_skill(data: &Path, description: &str, script: &str, body: &str) {
    let skill = "skills/helper";
    write(
        data,
        &format!("{skill}/SKILL.md"),
        &format!("---\nname: helper\ndescription: {description}\n---\nUse the script.\n"),
    );
    write(data, &format!("{skill}/tools.yaml"), "tools:\n  - run_script\n");
    write(data, &format!("{skill}/scripts/{script}"), body);
}

/// Replaces the data dir's database with one at schema version 6 (the first six files of
/// `migrations/`, applied as an older VibeLife did; before the undo history and memory
/// back-off, so an upgrade has real work to do), holding one conversation, `old-conversation`.
/// Encrypted with [`PASSPHRASE`] when `keyed`, clear otherwise.
pub fn make_outdated(dir: &Path, keyed: bool) {
    const OLD_VERSION: usize = 6;
    for suffix in ["", "-wal", "-shm"] {
        let _ = std::fs::remove_file(dir.join(format!("vibe.db{suffix}")));
    }
    let conn =
        if keyed { db(dir) } else { rusqlite::Connection::open(dir.join("vibe.db")).unwrap() };
    let migrations = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../migrations");
    let mut files: Vec<_> = std::fs::read_dir(&migrations)
        .unwrap()
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|e| e == "sql"))
        .collect();
    files.sort();
    for file in &files[..OLD_VERSION] {
        conn.execute_batch(&std::fs::read_to_string(file).unwrap()).unwrap();
    }
    conn.pragma_update(None, "user_version", OLD_VERSION as i64).unwrap();
    conn.execute(
        "INSERT INTO conversations (id, user_id, title, created_at, updated_at) \
         VALUES ('old-conversation', 'local', '旧的对话', 't', 't')",
        [],
    )
    .unwrap();
}
