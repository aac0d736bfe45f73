//! Writing a backup file ([`create`]) and reading one back into a folder with every check
//! ([`read_into`]): the manifest first, each entry's size and SHA-256, the database copy's
//! integrity check with the key, its schema version and rows per table.

use std::fs::File;
use std::io::{Read, Write};
use std::path::{Component, Path, PathBuf};

use sha2::{Digest, Sha256};
use vibe_store::{DbKey, Store, StoreError};
use vibe_wire::command::{BackupFileEntry, BackupManifest, Encryption};

use super::{BackupError, DB_ENTRY, FORMAT, FORMAT_VERSION, MANIFEST, private_dir};
use vibe_runlog::RUNS_DIR;

/// Write a backup of `store` and of `data_dir`'s run folders to `out`, a new file (written
/// beside it under a temporary name and moved into place only when complete, 0600). The
/// database copy is one consistent snapshot taken first; run folders are copied after it
/// (dot files, such as a run's lock, are left out).
pub fn create(
    store: &Store,
    key: &DbKey,
    encryption: Encryption,
    data_dir: &Path,
    out: &Path,
) -> Result<BackupManifest, BackupError> {
    if out.exists() {
        return Err(BackupError::Exists { path: out.to_path_buf() });
    }
    let staging = match super::WorkDir::new(data_dir, ".backup-") {
        Ok(staging) => staging,
        // A read-only data folder is backed up elsewhere (the rescue path): the work is done
        // in the system's temporary folder, as a backup's check does without a data folder.
        Err(e) => {
            tracing::info!("working in the temporary folder: {e}");
            super::WorkDir::new(&std::env::temp_dir(), ".vibelife-backup-work-")?
        }
    };
    let db = staging.path().join(DB_ENTRY);
    store.snapshot_into(&db)?;
    let found = vibe_store::inspect(&db, key)?;
    if !found.problems.is_empty() {
        return Err(BackupError::Invalid {
            file: out.to_path_buf(),
            problems: vec![format!(
                "the database failed its integrity check ({}); check it before backing it up",
                found.problems.join("; ")
            )],
        });
    }
    let mut paths = vec![DB_ENTRY.to_string()];
    let runs = data_dir.join(RUNS_DIR);
    if runs.is_dir() {
        copy_tree(&runs, &staging.path().join(RUNS_DIR), RUNS_DIR, &mut paths)?;
    }
    let mut files = Vec::with_capacity(paths.len());
    for path in &paths {
        let (bytes, sha256) = digest_file(&staging.path().join(path))?;
        files.push(BackupFileEntry { path: path.clone(), bytes, sha256 });
    }
    let manifest = BackupManifest {
        format: FORMAT.into(),
        format_version: FORMAT_VERSION,
        created_at: vibe_store::now_rfc3339(),
        app_version: env!("CARGO_PKG_VERSION").into(),
        schema_version: found.schema_version,
        encryption,
        counts: found.counts,
        files,
    };

    let parent = out.parent().filter(|p| !p.as_os_str().is_empty()).unwrap_or(Path::new("."));
    // A partial file a killed backup left here goes; this one is locked while it is written.
    super::sweep_partial_backups(parent);
    let partial = tempfile::Builder::new()
        .prefix(super::PARTIAL_PREFIX)
        .suffix(super::PARTIAL_SUFFIX)
        .tempfile_in(parent)
        .map_err(BackupError::io("write a backup in", parent))?;
    partial.as_file().lock().map_err(BackupError::io("lock", partial.path()))?;
    let mut tar = tar::Builder::new(partial.as_file());
    let manifest_json = serde_json::to_vec_pretty(&manifest).unwrap_or_default();
    append(&mut tar, MANIFEST, manifest_json.len() as u64, manifest_json.as_slice(), out)?;
    for entry in &manifest.files {
        let path = staging.path().join(&entry.path);
        let file = File::open(&path).map_err(BackupError::io("read", &path))?;
        append(&mut tar, &entry.path, entry.bytes, file, out)?;
    }
    tar.into_inner()
        .and_then(|f| f.sync_all())
        .map_err(BackupError::io("write the backup", out))?;
    partial.persist_noclobber(out).map_err(|e| match e.error.kind() {
        std::io::ErrorKind::AlreadyExists => BackupError::Exists { path: out.to_path_buf() },
        _ => BackupError::Io { what: "write the backup", path: out.to_path_buf(), err: e.error },
    })?;
    Ok(manifest)
}

fn append<W: Write>(
    tar: &mut tar::Builder<W>,
    path: &str,
    size: u64,
    data: impl Read,
    out: &Path,
) -> Result<(), BackupError> {
    let mut header = tar::Header::new_gnu();
    header.set_size(size);
    header.set_mode(0o600);
    header.set_entry_type(tar::EntryType::Regular);
    tar.append_data(&mut header, path, data.take(size))
        .map_err(BackupError::io("write the backup", out))
}

/// Copy the files under `from` into `to` (0700 folders), adding their archive paths
/// (`prefix/...`) to `paths`. Dot files and anything not a plain file or folder are left out.
pub(crate) fn copy_tree(
    from: &Path,
    to: &Path,
    prefix: &str,
    paths: &mut Vec<String>,
) -> Result<(), BackupError> {
    private_dir(to)?;
    let mut entries: Vec<_> = std::fs::read_dir(from)
        .map_err(BackupError::io("list", from))?
        .collect::<Result<_, _>>()
        .map_err(BackupError::io("list", from))?;
    entries.sort_by_key(std::fs::DirEntry::file_name);
    for entry in entries {
        let name = entry.file_name().to_string_lossy().into_owned();
        if name.starts_with('.') {
            continue;
        }
        let kind = entry.file_type().map_err(BackupError::io("read", &entry.path()))?;
        let archive_path = format!("{prefix}/{name}");
        if kind.is_dir() {
            copy_tree(&entry.path(), &to.join(&name), &archive_path, paths)?;
        } else if kind.is_file() {
            let target = to.join(&name);
            std::fs::copy(entry.path(), &target).map_err(BackupError::io("copy", &entry.path()))?;
            paths.push(archive_path);
        }
    }
    Ok(())
}

/// Copy the database file of `data_dir` as it is (with its `-wal` and `-shm`) and its run
/// folders into the new folder `dest`: what a restore keeps of a database too damaged to be
/// snapshotted.
pub fn keep_as_is(data_dir: &Path, dest: &Path) -> Result<(), BackupError> {
    private_dir(dest)?;
    for suffix in ["", "-wal", "-shm"] {
        let name = format!("{DB_ENTRY}{suffix}");
        let from = data_dir.join(&name);
        if from.exists() {
            std::fs::copy(&from, dest.join(&name)).map_err(BackupError::io("copy", &from))?;
        }
    }
    let runs = data_dir.join(RUNS_DIR);
    if runs.is_dir() {
        copy_tree(&runs, &dest.join(RUNS_DIR), RUNS_DIR, &mut Vec::new())?;
    }
    Ok(())
}

fn digest_file(path: &Path) -> Result<(u64, String), BackupError> {
    let mut file = File::open(path).map_err(BackupError::io("read", path))?;
    let mut hasher = Sha256::new();
    let bytes = std::io::copy(&mut file, &mut hasher).map_err(BackupError::io("read", path))?;
    Ok((bytes, hex::encode(hasher.finalize())))
}

/// Read the backup `file` into the folder `dest` (made here, 0700) and check everything: a
/// manifest of this format first, exactly the entries it lists with their sizes and SHA-256,
/// and a database copy that opens with `key`, passes SQLite's integrity check and has the
/// manifest's schema version and rows per table. Answers the manifest; any failed check is
/// [`BackupError::Invalid`] listing what failed.
pub fn read_into(file: &Path, key: &DbKey, dest: &Path) -> Result<BackupManifest, BackupError> {
    let invalid =
        |problems: Vec<String>| BackupError::Invalid { file: file.to_path_buf(), problems };
    let reader = File::open(file).map_err(BackupError::io("open", file))?;
    private_dir(dest)?;
    let mut archive = tar::Archive::new(reader);
    let mut entries =
        archive.entries().map_err(|e| invalid(vec![format!("not a tar archive ({e})")]))?;
    let manifest: BackupManifest = match entries.next() {
        Some(Ok(mut entry)) if entry.path().is_ok_and(|p| p == Path::new(MANIFEST)) => {
            let mut text = String::new();
            entry
                .read_to_string(&mut text)
                .map_err(|e| invalid(vec![format!("its manifest cannot be read ({e})")]))?;
            serde_json::from_str(&text)
                .map_err(|e| invalid(vec![format!("its manifest is not valid ({e})")]))?
        }
        Some(Err(e)) => return Err(invalid(vec![format!("not a tar archive ({e})")])),
        _ => return Err(invalid(vec![format!("it does not start with {MANIFEST}")])),
    };
    if manifest.format != FORMAT || manifest.format_version > FORMAT_VERSION {
        return Err(invalid(vec![format!(
            "its manifest is of format {} v{}, not {FORMAT} v{FORMAT_VERSION} or older",
            manifest.format, manifest.format_version
        )]));
    }

    let mut problems = Vec::new();
    let mut found: Vec<BackupFileEntry> = Vec::new();
    for entry in entries {
        let mut entry = match entry {
            Ok(entry) => entry,
            Err(e) => {
                problems.push(format!("the archive is cut short or damaged ({e})"));
                break;
            }
        };
        let path = match entry.path() {
            Ok(p) => p.into_owned(),
            Err(e) => {
                problems.push(format!("an entry has an unreadable name ({e})"));
                continue;
            }
        };
        let Some(name) = safe_name(&path) else {
            problems.push(format!("unexpected entry {}", path.display()));
            continue;
        };
        if entry.header().entry_type() != tar::EntryType::Regular {
            continue;
        }
        let target = dest.join(&path);
        if let Some(parent) = target.parent() {
            private_dir(parent)?;
        }
        if target.exists() {
            problems.push(format!("{name} is in the archive twice"));
            continue;
        }
        let mut out = private_file(&target)?;
        let mut hasher = Sha256::new();
        let mut buf = vec![0u8; 64 * 1024];
        let mut bytes = 0u64;
        loop {
            let n = match entry.read(&mut buf) {
                Ok(0) => break,
                Ok(n) => n,
                Err(e) => {
                    problems.push(format!("{name} is cut short ({e})"));
                    break;
                }
            };
            hasher.update(&buf[..n]);
            out.write_all(&buf[..n]).map_err(BackupError::io("write", &target))?;
            bytes += n as u64;
        }
        found.push(BackupFileEntry { path: name, bytes, sha256: hex::encode(hasher.finalize()) });
    }
    for expected in &manifest.files {
        match found.iter().find(|f| f.path == expected.path) {
            None => problems.push(format!("{} is missing", expected.path)),
            Some(f) if f.bytes != expected.bytes || f.sha256 != expected.sha256 => {
                problems.push(format!("{} does not match its checksum", expected.path));
            }
            Some(_) => {}
        }
    }
    for extra in found.iter().filter(|f| !manifest.files.iter().any(|e| e.path == f.path)) {
        problems.push(format!("{} is not in the manifest", extra.path));
    }
    if !problems.is_empty() {
        return Err(invalid(problems));
    }

    let db = dest.join(DB_ENTRY);
    let inspection = match vibe_store::inspect(&db, key) {
        Ok(found) => found,
        Err(StoreError::WrongKey { mode, .. }) => {
            return Err(BackupError::WrongKey { file: file.to_path_buf(), mode });
        }
        Err(e) => return Err(invalid(vec![format!("its database cannot be read ({e})")])),
    };
    problems.extend(inspection.problems.iter().map(|p| format!("database: {p}")));
    if inspection.schema_version != manifest.schema_version {
        problems.push(format!(
            "its database has schema version {}, the manifest says {}",
            inspection.schema_version, manifest.schema_version
        ));
    }
    if inspection.counts != manifest.counts {
        problems.push("its database's rows per table differ from the manifest's".into());
    }
    if problems.is_empty() {
        problems.extend(check_sealed_runs(&db, key, dest, &found)?);
    }
    if !problems.is_empty() {
        return Err(invalid(problems));
    }
    Ok(manifest)
}

/// Sealed run files must name the run-folder key the database copy holds
/// (docs/privacy.md#run-folders): a backup whose run folders could not be read after a restore
/// is refused. Clear ones (encryption off, or runs from before sealing) pass.
fn check_sealed_runs(
    db: &Path,
    key: &DbKey,
    dest: &Path,
    found: &[BackupFileEntry],
) -> Result<Vec<String>, BackupError> {
    let mut problems = Vec::new();
    let mut expected: Option<Option<String>> = None;
    for entry in found.iter().filter(|f| f.path.starts_with(&format!("{RUNS_DIR}/"))) {
        let path = dest.join(&entry.path);
        let mut head = Vec::new();
        File::open(&path)
            .and_then(|f| f.take(vibe_runlog::SEALED_HEADER_LEN as u64).read_to_end(&mut head))
            .map_err(BackupError::io("read", &path))?;
        let Some(id) = vibe_runlog::sealed_key_id(&head) else { continue };
        let ours = match &expected {
            Some(ours) => ours.clone(),
            None => {
                let stored =
                    vibe_store::inspect_run_file_key(db, key).map_err(BackupError::from)?;
                let ours = stored.map(|raw| vibe_runlog::RunKey::new(&raw).id().to_string());
                expected = Some(ours.clone());
                ours
            }
        };
        if ours.as_deref() != Some(id.as_str()) {
            problems.push(format!(
                "{} is sealed with a key ({id}) its database does not hold",
                entry.path
            ));
        }
    }
    Ok(problems)
}

/// The archive path as text when it is one a backup holds: `vibe.db` or a plain relative path
/// under `runs/` (nothing absolute, no `..`).
fn safe_name(path: &Path) -> Option<String> {
    let plain = path.components().all(|c| matches!(c, Component::Normal(_)));
    let name = path.to_str()?.to_string();
    (plain && (name == DB_ENTRY || name.starts_with(&format!("{RUNS_DIR}/")))).then_some(name)
}

fn private_file(path: &PathBuf) -> Result<File, BackupError> {
    let mut options = std::fs::OpenOptions::new();
    options.write(true).create_new(true);
    #[cfg(unix)]
    std::os::unix::fs::OpenOptionsExt::mode(&mut options, 0o600);
    options.open(path).map_err(BackupError::io("write", path))
}
