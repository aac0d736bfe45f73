//! SQLCipher's crypto-provider interface as Rust sees it (sqlcipher/src/sqlcipher.h in the
//! bundled SQLCipher 4.x that libsqlite3-sys compiles): the provider table, its constants and
//! the three functions the amalgamation exports for registering one. Layout only: what a
//! provider does is `page_crypto`'s. It must match the bundled C declaration field for field.
#![allow(unsafe_code)]

use std::ffi::{c_char, c_int, c_void};

pub(crate) const SQLITE_OK: c_int = 0;
pub(crate) const SQLITE_ERROR: c_int = 1;
/// SQLCipher's `mode` argument of `cipher`.
pub(crate) const ENCRYPT: c_int = 1;
pub(crate) const DECRYPT: c_int = 0;
/// SQLCipher's algorithm numbers (the same for HMAC and PBKDF2).
pub(crate) const HMAC_SHA256: c_int = 1;
pub(crate) const HMAC_SHA512: c_int = 2;
/// AES-256: what SQLCipher keys every page with.
pub(crate) const KEY_LEN: usize = 32;
pub(crate) const BLOCK_LEN: usize = 16;

pub(crate) type Ctx = *mut c_void;

/// SQLCipher's `sqlcipher_provider` (sqlcipher/src/sqlcipher.h), field for field: the bundled
/// SQLCipher (libsqlite3-sys's `bundled-sqlcipher`, 4.x) reads it by this layout.
#[repr(C)]
#[derive(Clone, Copy)]
pub(crate) struct Provider {
    pub init: Option<unsafe extern "C" fn() -> c_int>,
    pub shutdown: Option<unsafe extern "C" fn()>,
    pub get_provider_name: Option<unsafe extern "C" fn(Ctx) -> *const c_char>,
    pub add_random: Option<unsafe extern "C" fn(Ctx, *const c_void, c_int) -> c_int>,
    pub random: Option<unsafe extern "C" fn(Ctx, *mut c_void, c_int) -> c_int>,
    pub hmac: Option<HmacFn>,
    pub kdf: Option<KdfFn>,
    pub cipher: Option<CipherFn>,
    pub get_cipher: Option<unsafe extern "C" fn(Ctx) -> *const c_char>,
    pub get_key_sz: Option<unsafe extern "C" fn(Ctx) -> c_int>,
    pub get_iv_sz: Option<unsafe extern "C" fn(Ctx) -> c_int>,
    pub get_block_sz: Option<unsafe extern "C" fn(Ctx) -> c_int>,
    pub get_hmac_sz: Option<unsafe extern "C" fn(Ctx, c_int) -> c_int>,
    pub ctx_init: Option<unsafe extern "C" fn(*mut Ctx) -> c_int>,
    pub ctx_free: Option<unsafe extern "C" fn(*mut Ctx) -> c_int>,
    pub fips_status: Option<unsafe extern "C" fn(Ctx) -> c_int>,
    pub get_provider_version: Option<unsafe extern "C" fn(Ctx) -> *const c_char>,
    pub next: *mut Provider,
}

pub(crate) type HmacFn = unsafe extern "C" fn(
    Ctx,
    c_int,
    *const u8,
    c_int,
    *const u8,
    c_int,
    *const u8,
    c_int,
    *mut u8,
) -> c_int;
pub(crate) type KdfFn = unsafe extern "C" fn(
    Ctx,
    c_int,
    *const u8,
    c_int,
    *const u8,
    c_int,
    c_int,
    c_int,
    *mut u8,
) -> c_int;
pub(crate) type CipherFn = unsafe extern "C" fn(
    Ctx,
    c_int,
    *const u8,
    c_int,
    *const u8,
    *const u8,
    c_int,
    *mut u8,
) -> c_int;

unsafe extern "C" {
    // Defined (extern) in the bundled SQLCipher amalgamation that libsqlite3-sys links.
    pub(crate) fn sqlcipher_register_provider(p: *mut Provider) -> c_int;
    pub(crate) fn sqlcipher_get_provider() -> *mut Provider;
    pub(crate) fn sqlcipher_malloc(size: u64) -> *mut c_void;
}
