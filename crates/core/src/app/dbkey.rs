//! Which key opens a data dir's database (docs/privacy.md#encryption-at-rest): the
//! `storage.encryption` setting ([`Encryption`]: keychain, passphrase or none), recorded the
//! first time a data dir is opened, and the key each mode gives — a random 256-bit key kept
//! in the [`KeyStore`] under the data dir's canonical path, the passphrase handed in through
//! [`Overrides`], or none when the person turned encryption off. There is never a silent
//! fallback to clear text. It never reads a terminal or the environment (front ends do), and
//! never writes a key anywhere but the key store.

use std::path::{Path, PathBuf};

use vibe_store::{DbKey, RAW_KEY_LEN};
pub use vibe_wire::command::Encryption;
/// The `storage` section of the settings (a wire type).
pub use vibe_wire::settings::StorageSettings;
use zeroize::Zeroizing;

use crate::app::{AppError, AppPaths, KeyStore, Overrides};

/// The key store account of a data dir's database key: its canonical path, so two data dirs
/// have two keys.
pub fn account(data_dir: &Path) -> String {
    let dir = std::fs::canonicalize(data_dir).unwrap_or_else(|_| data_dir.to_path_buf());
    format!("db:{}", dir.display())
}

/// The mode and key for `paths`' database, and whether the mode still has to be recorded in
/// the settings (the data dir's first open under this version). A keychain key is created
/// (and stored) only when there is no encrypted database yet.
pub(crate) fn resolve(
    paths: &AppPaths,
    overrides: &Overrides,
    recorded: Option<Encryption>,
    keys: &dyn KeyStore,
) -> Result<(Encryption, DbKey), AppError> {
    resolve_with(paths, overrides, recorded, keys, Create::IfNoDatabase)
}

/// Whether finding a keychain key may make one.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Create {
    IfNoDatabase,
    Never,
}

fn resolve_with(
    paths: &AppPaths,
    overrides: &Overrides,
    recorded: Option<Encryption>,
    keys: &dyn KeyStore,
    create: Create,
) -> Result<(Encryption, DbKey), AppError> {
    let data_dir = paths.data_dir.clone();
    let mode = match recorded {
        Some(mode) => {
            if overrides.no_encryption && mode != Encryption::None {
                return Err(AppError::InvalidInput(format!(
                    "the database in {} is encrypted ({}); encryption cannot be turned off for \
                     an existing database",
                    data_dir.display(),
                    mode.as_str()
                )));
            }
            mode
        }
        None if overrides.no_encryption => Encryption::None,
        None if overrides.db_passphrase.is_some() => Encryption::Passphrase,
        None => Encryption::Keychain,
    };
    let key = match mode {
        Encryption::None => DbKey::Clear,
        Encryption::Passphrase => match &overrides.db_passphrase {
            Some(p) => DbKey::Passphrase(p.clone()),
            None => return Err(AppError::PassphraseNeeded { data_dir }),
        },
        Encryption::Keychain => keychain_key(paths, keys, create)?,
    };
    Ok((mode, key))
}

fn keychain_key(paths: &AppPaths, keys: &dyn KeyStore, create: Create) -> Result<DbKey, AppError> {
    let data_dir = paths.data_dir.clone();
    let account = account(&paths.data_dir);
    let no_key = |why: String| AppError::NoDatabaseKey { data_dir: data_dir.clone(), why };
    match keys.get_db_key(&account).map_err(|e| no_key(e.to_string()))? {
        Some(hex) => DbKey::from_hex(&hex).ok_or_else(|| {
            no_key(format!("the keychain entry \"{account}\" does not hold a database key"))
        }),
        None if holds_encrypted_db(&paths.db()) => Err(no_key(format!(
            "the database is encrypted and the keychain has no key for it (entry \"{account}\"; \
             was the keychain reset, or the folder moved from another machine or path?)"
        ))),
        None if create == Create::Never => Err(no_key(format!(
            "the keychain has no key for this data folder yet (entry \"{account}\"), so nothing \
             made with one can be checked here; nothing was created. Open the folder once, or \
             use the data folder the backup was made from"
        ))),
        None => {
            let mut raw = Zeroizing::new([0u8; RAW_KEY_LEN]);
            getrandom::fill(raw.as_mut())
                .map_err(|e| no_key(format!("the OS gave no random bytes for a key ({e})")))?;
            let key = DbKey::Raw(raw);
            let hex = key.to_hex().unwrap_or_default();
            keys.set_db_key(&account, &hex).map_err(|e| no_key(e.to_string()))?;
            tracing::info!(account = %account, "created the database key in the keychain");
            Ok(key)
        }
    }
}

/// An exclusive lock on `<db>.keylock`, held from finding the key to the database file being
/// made with it: two processes starting a new data dir at once would otherwise each create a
/// keychain key, and the one stored last might not be the one the file was made with. `None`
/// when the lock file cannot be made (a read-only folder: nothing can be created there).
pub(crate) fn creation_lock(paths: &AppPaths) -> Option<std::fs::File> {
    let mut name = paths.db().into_os_string();
    name.push(".keylock");
    let mut options = std::fs::OpenOptions::new();
    options.create(true).truncate(false).write(true);
    #[cfg(unix)]
    std::os::unix::fs::OpenOptionsExt::mode(&mut options, 0o600);
    let file = options.open(PathBuf::from(name)).ok()?;
    match file.lock() {
        Ok(()) => Some(file),
        Err(e) => {
            tracing::warn!("cannot lock the data folder for choosing its key: {e}");
            None
        }
    }
}

/// A non-empty database file without the clear SQLite header.
fn holds_encrypted_db(db: &Path) -> bool {
    use std::io::Read;
    let mut header = [0u8; 16];
    std::fs::File::open(db).and_then(|mut f| f.read_exact(&mut header)).is_ok()
        && &header != b"SQLite format 3\0"
}

/// The data dir created owner-only (0700), or made so when it already holds VibeLife's
/// database or settings (docs/privacy.md#files).
pub(crate) fn private_data_dir(paths: &AppPaths) -> Result<(), AppError> {
    let dir: PathBuf = paths.data_dir.clone();
    let err = |err| AppError::DataDir { path: dir.clone(), err };
    let existed = dir.exists();
    let mut builder = std::fs::DirBuilder::new();
    builder.recursive(true);
    #[cfg(unix)]
    std::os::unix::fs::DirBuilderExt::mode(&mut builder, 0o700);
    builder.create(&dir).map_err(err)?;
    // A folder that cannot be made owner-only (a read-only file system) is only warned
    // about: its files are owner-only themselves, and a write there fails naming the file
    // and the cause, which says more than a failed chmod of the folder.
    #[cfg(unix)]
    if !existed || paths.db().exists() || paths.settings_file().exists() {
        use std::os::unix::fs::PermissionsExt;
        let private = std::fs::Permissions::from_mode(0o700);
        match std::fs::set_permissions(&dir, private) {
            Ok(()) => {}
            Err(e) if e.kind() == std::io::ErrorKind::ReadOnlyFilesystem => {
                tracing::debug!(path = %dir.display(), "cannot make the data folder owner-only: {e}");
            }
            Err(e) => {
                tracing::warn!(path = %dir.display(), "cannot make the data folder owner-only: {e}");
            }
        }
    }
    #[cfg(not(unix))]
    let _ = existed;
    Ok(())
}

/// The database of `paths` alone, with its key, for a front end's maintenance commands (an
/// integrity check) that must work while the rest of the settings are broken: only the
/// `storage.encryption` value is read from the settings file, and nothing is recorded.
pub fn open_database(
    paths: &AppPaths,
    overrides: &Overrides,
    keys: &dyn KeyStore,
) -> Result<vibe_store::Store, AppError> {
    private_data_dir(paths)?;
    let _lock = creation_lock(paths);
    let (_, key) = database_key(paths, overrides, keys)?;
    crate::backup::finish_restore(&paths.data_dir);
    Ok(vibe_store::Store::open_with_key(&paths.db(), &key)?)
}

/// The key mode recorded in `paths`' settings (only that value is read), and the key it gives.
pub(crate) fn database_key(
    paths: &AppPaths,
    overrides: &Overrides,
    keys: &dyn KeyStore,
) -> Result<(Encryption, DbKey), AppError> {
    resolve(paths, overrides, recorded_mode(paths), keys)
}

/// [`database_key`] for commands that must not create anything (checking or restoring a
/// backup): a keychain folder without a key is an error, not a new key.
pub(crate) fn existing_key(
    paths: &AppPaths,
    overrides: &Overrides,
    keys: &dyn KeyStore,
) -> Result<(Encryption, DbKey), AppError> {
    resolve_with(paths, overrides, recorded_mode(paths), keys, Create::Never)
}

/// The key mode recorded in `paths`' settings file, if it can be read.
pub(crate) fn recorded_mode(paths: &AppPaths) -> Option<Encryption> {
    std::fs::read_to_string(paths.settings_file())
        .ok()
        .and_then(|text| serde_json::from_str::<serde_json::Value>(&text).ok())
        .and_then(|doc| doc.pointer("/storage/encryption").cloned())
        .and_then(|v| serde_json::from_value::<Encryption>(v).ok())
}
