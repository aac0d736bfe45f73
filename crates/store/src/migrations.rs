//! The embedded schema migrations (the numbered files in the repo's `migrations/` folder) and
//! how they are applied: version check first (a newer file is refused untouched), a backup of
//! an existing file before any upgrade, then every pending migration in one transaction.

use std::path::{Path, PathBuf};

use rusqlite::Connection;
use rusqlite_migration::{M, Migrations};

use crate::error::{Result, StoreError};

/// The migrations, in order. Each entry's file name is checked against `migrations/` by a test,
/// so a new file that is not listed here fails the build's tests.
pub(crate) const FILES: &[(&str, &str)] = &[
    ("0001_init.sql", include_str!("../../../migrations/0001_init.sql")),
    ("0002_messages_rowid.sql", include_str!("../../../migrations/0002_messages_rowid.sql")),
    ("0003_token_calibration.sql", include_str!("../../../migrations/0003_token_calibration.sql")),
    ("0004_protocol_runs.sql", include_str!("../../../migrations/0004_protocol_runs.sql")),
    ("0005_message_safety.sql", include_str!("../../../migrations/0005_message_safety.sql")),
    ("0006_memory.sql", include_str!("../../../migrations/0006_memory.sql")),
    ("0007_state_history.sql", include_str!("../../../migrations/0007_state_history.sql")),
    ("0008_memory_backoff.sql", include_str!("../../../migrations/0008_memory_backoff.sql")),
    ("0009_reminder_notices.sql", include_str!("../../../migrations/0009_reminder_notices.sql")),
    ("0010_run_file_key.sql", include_str!("../../../migrations/0010_run_file_key.sql")),
    (
        "0011_drop_conversations_by_user.sql",
        include_str!("../../../migrations/0011_drop_conversations_by_user.sql"),
    ),
    (
        "0012_protocols_destructive_history.sql",
        include_str!("../../../migrations/0012_protocols_destructive_history.sql"),
    ),
    ("0013_history_cleared.sql", include_str!("../../../migrations/0013_history_cleared.sql")),
    ("0014_sync_oplog.sql", include_str!("../../../migrations/0014_sync_oplog.sql")),
    ("0015_sync_kinds.sql", include_str!("../../../migrations/0015_sync_kinds.sql")),
    (
        "0016_message_safety_category.sql",
        include_str!("../../../migrations/0016_message_safety_category.sql"),
    ),
];

/// A schema upgrade done while opening a file, for the front end to tell the person (the CLI
/// prints it as one line on stderr).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Upgrade {
    /// The schema version the file had.
    pub from: i64,
    /// The schema version it has now.
    pub to: i64,
    /// The copy of the file as it was, when it held data.
    pub backup: Option<PathBuf>,
}

/// How many backups of the database are kept beside it.
pub const BACKUPS_KEPT: usize = 3;

/// The schema version this build writes.
pub fn latest_version() -> i64 {
    FILES.len() as i64
}

fn migrations() -> Migrations<'static> {
    Migrations::new(FILES.iter().map(|(_, sql)| M::up(sql)).collect())
}

pub(crate) fn user_version(conn: &Connection) -> Result<i64> {
    Ok(conn.query_row("PRAGMA user_version", [], |row| row.get(0))?)
}

/// Refuse a database from a newer schema before anything touches it.
pub(crate) fn check_not_newer(conn: &Connection, path: &Path) -> Result<i64> {
    let found = user_version(conn)?;
    if found > latest_version() {
        return Err(StoreError::NewerSchema {
            path: path.to_path_buf(),
            found,
            supported: latest_version(),
        });
    }
    Ok(found)
}

/// Apply pending migrations. For a file that already holds a schema, first copy it to a
/// timestamped backup beside it (keeping the newest [`BACKUPS_KEPT`]). Says what it did when
/// an existing file was upgraded.
pub(crate) fn upgrade(
    conn: &mut Connection,
    path: Option<&Path>,
    found: i64,
) -> Result<Option<Upgrade>> {
    upgrade_with(conn, path, found, &migrations(), latest_version())
}

fn upgrade_with(
    conn: &mut Connection,
    path: Option<&Path>,
    found: i64,
    migrations: &Migrations<'_>,
    latest: i64,
) -> Result<Option<Upgrade>> {
    if found == latest {
        return Ok(None);
    }
    let mut done = None;
    if let Some(path) = path
        && holds_data(conn, found)?
    {
        let backup = backup(conn, path, found)
            .map_err(|e| StoreError::Backup { path: path.to_path_buf(), source: Box::new(e) })?;
        tracing::info!(
            from = found,
            to = latest,
            backup = %backup.display(),
            "upgrading database schema; backup written first"
        );
        prune_backups(path);
        done = Some(Upgrade { from: found, to: latest, backup: Some(backup) });
    }
    migrations.to_latest(conn).map_err(|e| migration_error(path, found, &e))?;
    Ok(done)
}

/// A failed migration as [`StoreError::Migration`]: which file (found by its SQL), and
/// SQLite's own message, without the SQL text the library's error carries.
fn migration_error(path: Option<&Path>, from: i64, err: &rusqlite_migration::Error) -> StoreError {
    let path = path.map_or_else(|| PathBuf::from(":memory:"), Path::to_path_buf);
    let shorten = |text: String| -> String {
        if text.chars().count() > 300 {
            format!("{}…", text.chars().take(300).collect::<String>())
        } else {
            text
        }
    };
    match err {
        rusqlite_migration::Error::RusqliteError { query, err } => {
            let migration = FILES
                .iter()
                .find(|(_, sql)| !query.is_empty() && *sql == query.as_str())
                .map(|(name, _)| (*name).to_string())
                .unwrap_or_else(|| {
                    let first: String =
                        query.lines().next().unwrap_or_default().chars().take(80).collect();
                    format!("`{first}`")
                });
            // Both forms without the SQL (`SqlInputError`'s text quotes the whole migration).
            let reason = match err {
                rusqlite::Error::SqliteFailure(_, Some(message))
                | rusqlite::Error::SqlInputError { msg: message, .. } => message.clone(),
                other => shorten(other.to_string()),
            };
            StoreError::Migration { path, from, migration, reason, code: err.sqlite_error_code() }
        }
        other => StoreError::Migration {
            path,
            from,
            migration: format!("to version {}", latest_version()),
            reason: shorten(other.to_string().replace('\n', " ")),
            code: None,
        },
    }
}

/// A file with a schema version or any table is somebody's data: back it up before changing it.
fn holds_data(conn: &Connection, found: i64) -> Result<bool> {
    if found > 0 {
        return Ok(true);
    }
    let objects: i64 = conn.query_row("SELECT count(*) FROM sqlite_schema", [], |r| r.get(0))?;
    Ok(objects > 0)
}

fn backup(conn: &Connection, path: &Path, version: i64) -> Result<PathBuf> {
    let stamp = chrono::Utc::now().format("%Y%m%dT%H%M%S%.3fZ");
    let target = path.with_file_name(format!("{}.backup-{stamp}-v{version}", file_name(path)));
    // On an encrypted connection the copy has the same key.
    crate::crypt::copy_into(conn, &target)?;
    Ok(target)
}

/// Backups of `path`, oldest first.
pub fn list_backups(path: &Path) -> Vec<PathBuf> {
    let prefix = format!("{}.backup-", file_name(path));
    let dir = path.parent().map(Path::to_path_buf).unwrap_or_else(|| PathBuf::from("."));
    let mut found: Vec<PathBuf> = std::fs::read_dir(&dir)
        .into_iter()
        .flatten()
        .flatten()
        .map(|entry| entry.path())
        .filter(|p| p.file_name().is_some_and(|n| n.to_string_lossy().starts_with(&prefix)))
        .collect();
    found.sort();
    found
}

fn prune_backups(path: &Path) {
    let backups = list_backups(path);
    let excess = backups.len().saturating_sub(BACKUPS_KEPT);
    for old in &backups[..excess] {
        if let Err(e) = std::fs::remove_file(old) {
            tracing::warn!(file = %old.display(), error = %e, "cannot remove old database backup");
        }
    }
}

fn file_name(path: &Path) -> String {
    path.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_else(|| "vibe.db".into())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn two_step() -> Migrations<'static> {
        Migrations::new(vec![
            M::up("CREATE TABLE notes (text TEXT NOT NULL);"),
            M::up("ALTER TABLE notes ADD COLUMN mood TEXT;"),
        ])
    }

    #[test]
    fn upgrading_an_existing_file_backs_it_up_first_and_keeps_the_last_three() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("vibe.db");
        let mut conn = Connection::open(&path).unwrap();
        Migrations::new(vec![M::up("CREATE TABLE notes (text TEXT NOT NULL);")])
            .to_latest(&mut conn)
            .unwrap();
        conn.execute("INSERT INTO notes VALUES ('precious')", []).unwrap();

        let done = upgrade_with(&mut conn, Some(&path), 1, &two_step(), 2).unwrap();
        assert_eq!(user_version(&conn).unwrap(), 2);
        let backups = list_backups(&path);
        assert_eq!(backups.len(), 1);
        assert_eq!(done, Some(Upgrade { from: 1, to: 2, backup: Some(backups[0].clone()) }));
        assert!(backups[0].to_string_lossy().ends_with("-v1"), "{backups:?}");
        let old = Connection::open(&backups[0]).unwrap();
        assert_eq!(user_version(&old).unwrap(), 1);
        let text: String = old.query_row("SELECT text FROM notes", [], |r| r.get(0)).unwrap();
        assert_eq!(text, "precious");

        for i in 0..4 {
            std::fs::write(
                dir.path().join(format!("vibe.db.backup-2020010{i}T000000.000Z-v1")),
                b"x",
            )
            .unwrap();
        }
        prune_backups(&path);
        let kept = list_backups(&path);
        assert_eq!(kept.len(), BACKUPS_KEPT);
        assert_eq!(kept.last(), backups.last(), "the newest backup is kept");
    }

    #[test]
    fn a_new_file_is_not_backed_up() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("vibe.db");
        let mut conn = Connection::open(&path).unwrap();
        let done = upgrade_with(&mut conn, Some(&path), 0, &two_step(), 2).unwrap();
        assert!(list_backups(&path).is_empty());
        assert_eq!(done, None, "creating a file is no upgrade to tell anyone about");
    }

    #[test]
    fn messages_keep_their_ids_and_rows_when_autoincrement_is_dropped() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("vibe.db");
        let mut conn = Connection::open(&path).unwrap();
        conn.pragma_update(None, "foreign_keys", true).unwrap();
        Migrations::new(vec![M::up(FILES[0].1)]).to_latest(&mut conn).unwrap();
        conn.execute_batch(
            "INSERT INTO conversations (id, user_id, created_at, updated_at) VALUES ('c', 'local', 't', 't');
             INSERT INTO runs (id, conversation_id, status, started_at) VALUES ('r', 'c', 'completed', 't');
             INSERT INTO messages (id, conversation_id, role, content, run_id, created_at) VALUES (7, 'c', 'user', '你好', 'r', 't');
             INSERT INTO messages (conversation_id, role, content, tool_calls, status, created_at)
                 VALUES ('c', 'assistant', '半句', '[{\"id\":\"1\"}]', 'interrupted', 't');",
        )
        .unwrap();
        upgrade_with(&mut conn, Some(&path), 1, &migrations(), latest_version()).unwrap();
        assert_eq!(list_backups(&path).len(), 1, "backed up before the rebuild");
        type Row = (i64, String, Option<String>, Option<String>, String);
        let rows: Vec<Row> = conn
            .prepare("SELECT id, content, tool_calls, run_id, status FROM messages ORDER BY id")
            .unwrap()
            .query_map([], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?, r.get(4)?)))
            .unwrap()
            .collect::<rusqlite::Result<_>>()
            .unwrap();
        assert_eq!(
            rows,
            vec![
                (7, "你好".into(), None, Some("r".into()), "complete".into()),
                (8, "半句".into(), Some("[{\"id\":\"1\"}]".into()), None, "interrupted".into()),
            ]
        );
        let sql: String = conn
            .query_row("SELECT sql FROM sqlite_schema WHERE name = 'messages'", [], |r| r.get(0))
            .unwrap();
        assert!(!sql.contains("AUTOINCREMENT"), "{sql}");
        conn.execute(
            "INSERT INTO messages (conversation_id, role, content, created_at) VALUES ('c', 'user', 'x', 't')",
            [],
        )
        .unwrap();
        assert_eq!(conn.last_insert_rowid(), 9, "new ids continue above the old ones");
        let err = conn
            .execute(
                "INSERT INTO messages (conversation_id, role, created_at) VALUES ('nope', 'user', 't')",
                [],
            )
            .unwrap_err();
        assert!(err.to_string().contains("FOREIGN KEY"), "{err}");
        conn.execute("DELETE FROM conversations WHERE id = 'c'", []).unwrap();
        let left: i64 = conn.query_row("SELECT count(*) FROM messages", [], |r| r.get(0)).unwrap();
        assert_eq!(left, 0, "deleting a conversation still deletes its messages");
    }

    #[test]
    fn conversations_list_in_the_same_order_once_their_index_is_gone() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("vibe.db");
        let mut conn = Connection::open(&path).unwrap();
        let before_0011: Vec<M> = FILES[..10].iter().map(|(_, sql)| M::up(sql)).collect();
        Migrations::new(before_0011).to_latest(&mut conn).unwrap();
        conn.execute_batch(
            "INSERT INTO conversations (id, user_id, created_at, updated_at) VALUES ('old', 'local', 't', '2026-01-01');
             INSERT INTO conversations (id, user_id, created_at, updated_at) VALUES ('new', 'local', 't', '2026-03-01');
             INSERT INTO conversations (id, user_id, created_at, updated_at) VALUES ('mid', 'local', 't', '2026-02-01');",
        )
        .unwrap();
        upgrade_with(&mut conn, Some(&path), 10, &migrations(), latest_version()).unwrap();
        let store = crate::Store::open(&path).unwrap();
        let ids: Vec<String> =
            store.list_conversations("local").unwrap().into_iter().map(|c| c.id).collect();
        assert_eq!(ids, ["new", "mid", "old"]);
        let index: i64 = conn
            .query_row(
                "SELECT count(*) FROM sqlite_schema WHERE name = 'conversations_by_user'",
                [],
                |r| r.get(0),
            )
            .unwrap();
        assert_eq!(index, 0);
    }

    #[test]
    fn migrations_are_valid() {
        assert!(migrations().validate().is_ok());
    }

    #[test]
    fn every_file_in_the_migrations_folder_is_embedded_in_order() {
        let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../migrations");
        let mut on_disk: Vec<String> = std::fs::read_dir(&dir)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .filter(|n| n.ends_with(".sql"))
            .collect();
        on_disk.sort();
        let embedded: Vec<String> = FILES.iter().map(|(n, _)| n.to_string()).collect();
        assert_eq!(on_disk, embedded, "list every migrations/*.sql in FILES, in order");
        // The schema version is the count of applied files, so the numbers must be 1, 2, 3, ...
        let numbers: Vec<u32> =
            embedded.iter().map(|n| n[..4].parse().expect("NNNN_ prefix")).collect();
        let expected: Vec<u32> = (1..=numbers.len() as u32).collect();
        assert_eq!(numbers, expected, "{embedded:?} is out of sequence");
    }
}

#[cfg(test)]
mod failure_tests {
    use super::*;

    #[test]
    fn a_failed_migration_names_its_file_and_sqlites_reason_without_the_sql() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("vibe.db");
        drop(crate::Store::open(&path).unwrap());
        // The file says version 2, but already holds what migration 3 creates.
        Connection::open(&path).unwrap().pragma_update(None, "user_version", 2).unwrap();

        let err = crate::Store::open(&path).err().expect("the upgrade fails");
        let text = err.to_string();
        assert!(
            text.contains(
                "migration 0003_token_calibration.sql failed: table token_calibration already exists"
            ),
            "{text}"
        );
        assert!(text.contains("from schema version 2") && text.contains("rolled back"), "{text}");
        assert!(!text.contains("CREATE"), "no SQL in the message: {text}");
        assert!(text.len() < 400, "{text}");
        assert!(std::error::Error::source(&err).is_none(), "the reason is said once, here");
        assert_eq!(err.kind().as_str(), "migration_failed");
        let conn = Connection::open(&path).unwrap();
        assert_eq!(user_version(&conn).unwrap(), 2, "the file was left as it was");
    }
}
