//! The API key: a wrapper that never prints itself, and where it comes from —
//! `VIBE_LLM_API_KEY`, else the OS keychain (keyring; Secret Service over D-Bus on Linux,
//! pure Rust). Storing keys from a UI is the desktop's job; it calls `store_api_key` here.

use crate::errors::LlmError;

/// Keychain service name shared by the CLI and the desktop app.
pub const KEYCHAIN_SERVICE: &str = "app.vibelife.desktop";
/// Environment variable that overrides the keychain.
pub const API_KEY_ENV: &str = "VIBE_LLM_API_KEY";

/// An API key. `Debug` shows `ApiKey(***)`; there is no `Display`.
#[derive(Clone, PartialEq, Eq)]
pub struct ApiKey(String);

impl ApiKey {
    pub fn new(key: impl Into<String>) -> Self {
        Self(key.into())
    }

    /// The secret itself, only for the `Authorization` header.
    pub fn expose(&self) -> &str {
        &self.0
    }
}

impl std::fmt::Debug for ApiKey {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("ApiKey(***)")
    }
}

/// Where the key came from (for notices; never the key).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum KeySource {
    Env,
    Keychain,
    /// No key found; `notice` explains where we looked (e.g. no keychain service).
    None {
        notice: Option<String>,
    },
}

/// The keychain account for an endpoint: one key per base URL host (without any userinfo,
/// which may hold a password, or query).
pub fn account_for(base_url: &str) -> String {
    let rest = base_url.split("://").nth(1).unwrap_or(base_url);
    let authority = rest.split(['/', '?', '#']).next().unwrap_or("");
    let host = authority.rsplit('@').next().unwrap_or("");
    format!("llm:{host}")
}

/// Find the key for `base_url`: the `env_key` value when set (the caller reads the
/// environment), else the keychain entry.
pub fn load_api_key(base_url: &str, env_key: Option<String>) -> (Option<ApiKey>, KeySource) {
    if let Some(key) = env_key.filter(|k| !k.trim().is_empty()) {
        return (Some(ApiKey::new(key.trim())), KeySource::Env);
    }
    key_from_keychain(|| {
        keyring::Entry::new(KEYCHAIN_SERVICE, &account_for(base_url))?.get_password()
    })
}

/// What a keychain read amounts to: a key, no key (no entry, or an empty one), or no key
/// with a notice saying why the keychain could not be read.
fn key_from_keychain(
    read: impl FnOnce() -> keyring::Result<String>,
) -> (Option<ApiKey>, KeySource) {
    match read() {
        Ok(key) if !key.is_empty() => (Some(ApiKey::new(key)), KeySource::Keychain),
        Ok(_) | Err(keyring::Error::NoEntry) => (None, KeySource::None { notice: None }),
        Err(e) => (None, KeySource::None { notice: Some(no_keychain_notice(&e)) }),
    }
}

/// Save a key in the OS keychain for `base_url`.
pub fn store_api_key(base_url: &str, key: &ApiKey) -> Result<(), LlmError> {
    keyring::Entry::new(KEYCHAIN_SERVICE, &account_for(base_url))
        .and_then(|e| e.set_password(key.expose()))
        .map_err(|e| LlmError::config(no_keychain_notice(&e)))
}

/// Remove the key for `base_url` (absent is fine).
pub fn delete_api_key(base_url: &str) -> Result<(), LlmError> {
    match keyring::Entry::new(KEYCHAIN_SERVICE, &account_for(base_url))
        .and_then(|e| e.delete_credential())
    {
        Ok(()) | Err(keyring::Error::NoEntry) => Ok(()),
        Err(e) => Err(LlmError::config(no_keychain_notice(&e))),
    }
}

fn no_keychain_notice(e: &keyring::Error) -> String {
    // `NoDefaultStore` hides the reason the store could not start; that reason is kept here.
    let e = match (e, keyring::Entry::store_status()) {
        (keyring::Error::NoDefaultStore, Err(cause)) => cause,
        _ => e,
    };
    let why = match e {
        keyring::Error::NoDefaultStore
        | keyring::Error::PlatformFailure(_)
        | keyring::Error::NoStorageAccess(_) => {
            "no OS keychain service is available on this machine (on Linux: a Secret Service such as GNOME Keyring or KeePassXC on the session D-Bus)"
        }
        _ => "the OS keychain could not be read",
    };
    // The keyring error text names the store, never the secret.
    format!("{why} ({e}), so no API key can be kept there")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn debug_never_shows_the_key() {
        let k = ApiKey::new("sk-very-secret");
        assert_eq!(format!("{k:?}"), "ApiKey(***)");
        assert!(!format!("{:?}", Some(k)).contains("sk-very"));
    }

    #[test]
    fn env_value_wins_and_is_trimmed() {
        let (k, src) = load_api_key("http://x/v1", Some(" sk-env \n".into()));
        assert_eq!(k.as_ref().map(ApiKey::expose), Some("sk-env"));
        assert_eq!(src, KeySource::Env);
    }

    #[test]
    fn a_key_stored_in_the_keychain_is_used() {
        let (key, source) = key_from_keychain(|| Ok("sk-from-keychain".into()));
        assert_eq!(key.as_ref().map(ApiKey::expose), Some("sk-from-keychain"));
        assert_eq!(source, KeySource::Keychain);
    }

    #[test]
    fn no_entry_or_an_empty_one_is_no_key_and_no_notice() {
        for read in [Err(keyring::Error::NoEntry), Ok(String::new())] {
            let (key, source) = key_from_keychain(|| read);
            assert_eq!(key, None);
            assert_eq!(source, KeySource::None { notice: None });
        }
    }

    #[test]
    fn a_machine_without_a_keychain_service_gets_a_notice_saying_why() {
        let dbus_down = keyring::Error::PlatformFailure("no session D-Bus".into());
        let (key, source) = key_from_keychain(|| Err(dbus_down));
        assert_eq!(key, None);
        let KeySource::None { notice: Some(notice) } = source else {
            panic!("expected a notice, got {source:?}")
        };
        assert!(notice.contains("no OS keychain service is available"), "{notice}");
        // A library notice names no environment variable: each front end says where a key goes.
        assert!(!notice.contains(API_KEY_ENV), "{notice}");
    }

    #[test]
    fn this_machine_s_keychain_status_decides_the_outcome() {
        let (key, source) = load_api_key("http://127.0.0.1:1/v1", None);
        if keyring::Entry::store_status().is_err() {
            // No keychain service here (a headless CI box): the notice path, nothing else.
            assert_eq!(key, None);
            let KeySource::None { notice: Some(notice) } = source else {
                panic!("expected a notice, got {source:?}")
            };
            assert!(notice.contains("no API key can be kept there"), "{notice}");
        } else {
            // A keychain is up and holds no key for this made-up endpoint.
            assert_eq!(key, None);
            assert!(matches!(source, KeySource::None { .. }), "{source:?}");
        }
    }

    #[test]
    fn accounts_are_per_host() {
        assert_eq!(account_for("https://api.openai.com/v1"), "llm:api.openai.com");
        assert_eq!(account_for("http://127.0.0.1:11434/v1"), "llm:127.0.0.1:11434");
        assert_eq!(account_for("https://u:pw@h.example/v1?key=k"), "llm:h.example");
    }
}
