//! Where secrets live: [`KeyStore`], by default the OS keychain ([`OsKeychain`]): API keys
//! (through `vibe_llm`'s keychain functions) and each data dir's database key
//! (docs/privacy.md#where-keys-live), and MCP servers' tokens (docs/mcp.md). Secrets never go to settings, the database, logs or
//! events; a front end can only learn whether one is set. [`EphemeralKeys`] keeps them in
//! memory for throw-away data dirs (tests, evals, benchmarks).

use std::collections::HashMap;
use std::sync::{Mutex, PoisonError};

use vibe_llm::{ApiKey, KEYCHAIN_SERVICE};
use zeroize::Zeroizing;

use crate::app::AppError;

/// A store of API keys, one per endpoint (base URL), and of database keys, one per data dir.
pub trait KeyStore: Send + Sync {
    /// The key for `base_url`, if one is stored (and the store can be read).
    fn get(&self, base_url: &str) -> Option<ApiKey>;
    fn set(&self, base_url: &str, key: &ApiKey) -> Result<(), AppError>;
    /// Remove the key (absent is fine).
    fn clear(&self, base_url: &str) -> Result<(), AppError>;

    /// The database key (hex) kept under `account`: `Ok(None)` when there is none, an error
    /// saying why when the store cannot be used. By default a store keeps no database keys.
    fn get_db_key(&self, account: &str) -> Result<Option<Zeroizing<String>>, AppError> {
        let _ = account;
        Err(AppError::Keychain("this key store cannot keep database keys".into()))
    }

    /// Keep the database key (hex) under `account`.
    fn set_db_key(&self, account: &str, hex: &str) -> Result<(), AppError> {
        let _ = (account, hex);
        Err(AppError::Keychain("this key store cannot keep database keys".into()))
    }

    /// Remove the database key kept under `account`: `Ok(true)` when there was one.
    fn delete_db_key(&self, account: &str) -> Result<bool, AppError> {
        let _ = account;
        Err(AppError::Keychain("this key store cannot keep database keys".into()))
    }

    /// Another secret (an MCP server's token) kept under `account`: `Ok(None)` when there is
    /// none. By default a store keeps none.
    fn get_secret(&self, account: &str) -> Result<Option<Zeroizing<String>>, AppError> {
        let _ = account;
        Err(AppError::Keychain("this key store cannot keep other secrets".into()))
    }

    /// Keep a secret under `account`.
    fn set_secret(&self, account: &str, value: &str) -> Result<(), AppError> {
        let _ = (account, value);
        Err(AppError::Keychain("this key store cannot keep other secrets".into()))
    }

    /// Remove the secret kept under `account` (absent is fine).
    fn delete_secret(&self, account: &str) -> Result<(), AppError> {
        let _ = account;
        Err(AppError::Keychain("this key store cannot keep other secrets".into()))
    }
}

/// The OS keychain (Secret Service on Linux, Keychain on macOS, Credential Manager on
/// Windows), shared by the CLI and the desktop app.
#[derive(Debug, Clone, Copy, Default)]
pub struct OsKeychain;

impl KeyStore for OsKeychain {
    fn get(&self, base_url: &str) -> Option<ApiKey> {
        vibe_llm::load_api_key(base_url, None).0
    }

    fn set(&self, base_url: &str, key: &ApiKey) -> Result<(), AppError> {
        vibe_llm::store_api_key(base_url, key).map_err(|e| AppError::Keychain(e.to_string()))
    }

    fn clear(&self, base_url: &str) -> Result<(), AppError> {
        vibe_llm::delete_api_key(base_url).map_err(|e| AppError::Keychain(e.to_string()))
    }

    fn get_db_key(&self, account: &str) -> Result<Option<Zeroizing<String>>, AppError> {
        match keyring::Entry::new(KEYCHAIN_SERVICE, account).and_then(|e| e.get_password()) {
            Ok(hex) => Ok(Some(Zeroizing::new(hex))),
            Err(keyring::Error::NoEntry) => Ok(None),
            Err(e) => Err(keychain_error(&e)),
        }
    }

    fn set_db_key(&self, account: &str, hex: &str) -> Result<(), AppError> {
        keyring::Entry::new(KEYCHAIN_SERVICE, account)
            .and_then(|e| e.set_password(hex))
            .map_err(|e| keychain_error(&e))
    }

    fn delete_db_key(&self, account: &str) -> Result<bool, AppError> {
        match keyring::Entry::new(KEYCHAIN_SERVICE, account).and_then(|e| e.delete_credential()) {
            Ok(()) => Ok(true),
            Err(keyring::Error::NoEntry) => Ok(false),
            Err(e) => Err(keychain_error(&e)),
        }
    }

    // Other secrets live in the same keychain service, under their own accounts.
    fn get_secret(&self, account: &str) -> Result<Option<Zeroizing<String>>, AppError> {
        self.get_db_key(account)
    }

    fn set_secret(&self, account: &str, value: &str) -> Result<(), AppError> {
        self.set_db_key(account, value)
    }

    fn delete_secret(&self, account: &str) -> Result<(), AppError> {
        self.delete_db_key(account).map(|_| ())
    }
}

fn keychain_error(e: &keyring::Error) -> AppError {
    let e = match (e, keyring::Entry::store_status()) {
        (keyring::Error::NoDefaultStore, Err(cause)) => cause,
        _ => e,
    };
    // The keyring error text names the store, never the secret.
    AppError::Keychain(format!(
        "the OS keychain cannot be used ({e}; on Linux it needs a Secret Service such as GNOME \
         Keyring or KeePassXC on the session D-Bus)"
    ))
}

/// Keys kept in this process's memory only, gone when it ends: for data dirs that are thrown
/// away (tests, evals, benchmarks), never for a person's data.
#[derive(Default)]
pub struct EphemeralKeys {
    api: Mutex<HashMap<String, String>>,
    db: Mutex<HashMap<String, Zeroizing<String>>>,
    other: Mutex<HashMap<String, Zeroizing<String>>>,
}

impl KeyStore for EphemeralKeys {
    fn get(&self, base_url: &str) -> Option<ApiKey> {
        self.api.lock().unwrap_or_else(PoisonError::into_inner).get(base_url).map(ApiKey::new)
    }

    fn set(&self, base_url: &str, key: &ApiKey) -> Result<(), AppError> {
        let mut api = self.api.lock().unwrap_or_else(PoisonError::into_inner);
        api.insert(base_url.into(), key.expose().into());
        Ok(())
    }

    fn clear(&self, base_url: &str) -> Result<(), AppError> {
        self.api.lock().unwrap_or_else(PoisonError::into_inner).remove(base_url);
        Ok(())
    }

    fn get_db_key(&self, account: &str) -> Result<Option<Zeroizing<String>>, AppError> {
        Ok(self.db.lock().unwrap_or_else(PoisonError::into_inner).get(account).cloned())
    }

    fn set_db_key(&self, account: &str, hex: &str) -> Result<(), AppError> {
        let mut db = self.db.lock().unwrap_or_else(PoisonError::into_inner);
        db.insert(account.into(), Zeroizing::new(hex.into()));
        Ok(())
    }

    fn delete_db_key(&self, account: &str) -> Result<bool, AppError> {
        Ok(self.db.lock().unwrap_or_else(PoisonError::into_inner).remove(account).is_some())
    }

    fn get_secret(&self, account: &str) -> Result<Option<Zeroizing<String>>, AppError> {
        Ok(self.other.lock().unwrap_or_else(PoisonError::into_inner).get(account).cloned())
    }

    fn set_secret(&self, account: &str, value: &str) -> Result<(), AppError> {
        let mut other = self.other.lock().unwrap_or_else(PoisonError::into_inner);
        other.insert(account.into(), Zeroizing::new(value.into()));
        Ok(())
    }

    fn delete_secret(&self, account: &str) -> Result<(), AppError> {
        self.other.lock().unwrap_or_else(PoisonError::into_inner).remove(account);
        Ok(())
    }
}
