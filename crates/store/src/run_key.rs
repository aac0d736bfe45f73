//! The `run_file_key` table (migration 0010): the 256-bit key that seals the run folders of an
//! encrypted data folder (docs/privacy.md#run-folders). Kept inside the encrypted database, so
//! the database key protects it and a backup carries it. The store only keeps it (the first
//! one stored wins); making the random key and sealing files is the app's (`vibe_core::audit`).

use rusqlite::OptionalExtension as _;
use zeroize::Zeroizing;

use crate::Store;
use crate::clock::now_rfc3339;
use crate::crypt::RAW_KEY_LEN;
use crate::error::{Result, StoreError};

impl Store {
    /// The key of the run folders: the stored one, else `candidate`, stored now (in one
    /// IMMEDIATE transaction, so two processes opening the folder at once agree on one key).
    /// Refused on a database that is not encrypted: its key would lie in clear text.
    pub fn run_file_key(
        &self,
        candidate: &[u8; RAW_KEY_LEN],
    ) -> Result<Zeroizing<[u8; RAW_KEY_LEN]>> {
        if !self.encrypted {
            return Err(StoreError::invalid(
                "the database is not encrypted, so it cannot keep the key of the run folders \
                 (they stay clear text in a folder with encryption turned off)",
            ));
        }
        // Read first: a later open writes nothing (a read-only folder, a busy database).
        if let Some(key) = self.stored_run_file_key()? {
            return Ok(key);
        }
        self.write_tx(|tx| {
            if let Some(key) = stored(tx)? {
                return Ok(key);
            }
            tx.prepare_cached("INSERT INTO run_file_key (id, key, created_at) VALUES (1, ?1, ?2)")?
                .execute(rusqlite::params![candidate.as_slice(), now_rfc3339()])?;
            Ok(Zeroizing::new(*candidate))
        })
    }

    /// The stored key of the run folders, if the database has one (a backup's copy, checked
    /// before a restore).
    pub fn stored_run_file_key(&self) -> Result<Option<Zeroizing<[u8; RAW_KEY_LEN]>>> {
        self.read_tx(stored)
    }
}

pub(crate) fn stored(conn: &rusqlite::Connection) -> Result<Option<Zeroizing<[u8; RAW_KEY_LEN]>>> {
    let blob: Option<Zeroizing<Vec<u8>>> = conn
        .prepare_cached("SELECT key FROM run_file_key WHERE id = 1")?
        .query_row([], |r| r.get::<_, Vec<u8>>(0))
        .optional()?
        .map(Zeroizing::new);
    let Some(blob) = blob else { return Ok(None) };
    let key: [u8; RAW_KEY_LEN] = blob.as_slice().try_into().map_err(|_| {
        StoreError::invalid(format!(
            "the stored key of the run folders is {} bytes, not {RAW_KEY_LEN}",
            blob.len()
        ))
    })?;
    Ok(Some(Zeroizing::new(key)))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::DbKey;

    #[test]
    fn the_first_key_stored_is_kept_and_a_clear_database_keeps_none() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("vibe.db");
        let key = DbKey::passphrase("pw");
        {
            let store = Store::open_with_key(&path, &key).unwrap();
            assert!(store.stored_run_file_key().unwrap().is_none());
            assert_eq!(*store.run_file_key(&[7; 32]).unwrap(), [7; 32]);
            assert_eq!(*store.run_file_key(&[9; 32]).unwrap(), [7; 32], "the first one stays");
        }
        let store = Store::open_with_key(&path, &key).unwrap();
        assert_eq!(store.stored_run_file_key().unwrap().map(|k| *k), Some([7; 32]));

        let clear = Store::open(&dir.path().join("clear.db")).unwrap();
        let err = clear.run_file_key(&[7; 32]).unwrap_err().to_string();
        assert!(err.contains("not encrypted"), "{err}");
        assert!(clear.stored_run_file_key().unwrap().is_none());
        assert!(Store::open_in_memory().unwrap().run_file_key(&[1; 32]).is_err());
    }
}
