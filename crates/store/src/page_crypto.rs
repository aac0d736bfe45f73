//! The per-page crypto SQLCipher runs in this process (docs/privacy.md#the-crypto-library): a
//! SQLCipher crypto provider whose hot path — the random bytes written with every page (its
//! IV), AES-256-CBC over the page, and the page HMAC (SHA-256 or SHA-512) — is RustCrypto's,
//! called directly. The stock provider (OpenSSL 3 on Linux) looks each algorithm up by name,
//! makes and frees a MAC context and a cipher context, and takes a process-wide lock around its
//! DRBG for every page: two thirds of the page crypto's time in a chat turn. Key derivation,
//! HMAC-SHA1 and the descriptive getters stay the stock provider's (called through).
//!
//! What it must not do: change a byte of the file format (every output equals the stock
//! provider's for the same key, IV and input; the tests compare them), or keep key material:
//! keys arrive for one call, unshielded by SQLCipher for its duration, and the keyed state made
//! from them (AES round keys, HMAC pads) is dropped with the call and wiped on drop (the
//! crates' `zeroize` features; a copy a move leaves in the call's stack frame is not, and is
//! overwritten by the next call). Installed once per process before the first key
//! ([`install`]); codec contexts made before keep the stock provider.
#![allow(unsafe_code)]

use std::ffi::{c_char, c_int, c_void};
use std::sync::OnceLock;

use aes::Aes256;
use cbc::cipher::block_padding::NoPadding;
use cbc::cipher::{BlockModeDecrypt, BlockModeEncrypt, KeyIvInit};
use hmac::{Hmac, KeyInit, Mac};
use rand_chacha::ChaCha20Rng;
use rand_chacha::rand_core::{RngCore, SeedableRng};
use sha2::{Sha256, Sha512};
use zeroize::Zeroizing;

use crate::sqlcipher_ffi::{
    BLOCK_LEN, Ctx, DECRYPT, ENCRYPT, HMAC_SHA256, HMAC_SHA512, KEY_LEN, Provider, SQLITE_ERROR,
    SQLITE_OK, sqlcipher_get_provider, sqlcipher_malloc, sqlcipher_register_provider,
};

/// The stock provider, kept for what is called through. SQLCipher keeps it on its provider
/// list (it is only freed at `sqlite3_shutdown`, which this program never calls).
static STOCK: OnceLock<Stock> = OnceLock::new();

/// This provider as SQLCipher holds it (the tests make it the default again).
static OURS: OnceLock<Registered> = OnceLock::new();

#[derive(Clone, Copy)]
struct Stock(Provider);
#[derive(Clone, Copy)]
#[cfg_attr(not(test), allow(dead_code))]
struct Registered(*mut Provider);
// SAFETY: as for `Stock`: the pointer is only handed back to SQLCipher.
unsafe impl Send for Registered {}
unsafe impl Sync for Registered {}
// SAFETY: a table of C function pointers and a list pointer that nothing here dereferences
// mutably; SQLCipher's provider functions are callable from any thread.
unsafe impl Send for Stock {}
unsafe impl Sync for Stock {}

/// Whether this provider was installed (a warning is logged when not; the tests check it).
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Installed {
    /// This provider does the per-page work.
    Ours,
    /// The stock provider stays (it reported an unexpected cipher shape); the reason.
    Stock(String),
}

/// Make this provider SQLCipher's default for every codec context created from now on in
/// this process. SQLite must be initialised (any connection opened). Idempotent.
pub(crate) fn install() -> &'static Installed {
    static DONE: OnceLock<Installed> = OnceLock::new();
    DONE.get_or_init(|| {
        // SAFETY: SQLite is initialised (the caller opened a connection), so SQLCipher has
        // registered its default provider; the pointer stays valid for the process.
        let stock = unsafe { sqlcipher_get_provider() };
        if stock.is_null() {
            return Installed::Stock("SQLCipher has no provider registered".into());
        }
        // SAFETY: `stock` points at SQLCipher's provider struct of this layout.
        let stock = unsafe { *stock };
        if let Err(why) = check_shape(&stock) {
            return Installed::Stock(why);
        }
        STOCK.get_or_init(|| Stock(stock));
        let ours = Provider {
            init: None,
            shutdown: None,
            get_provider_name: Some(provider_name),
            add_random: Some(add_random),
            random: Some(random),
            hmac: Some(hmac),
            kdf: Some(kdf),
            cipher: Some(cipher),
            get_cipher: Some(get_cipher),
            get_key_sz: Some(get_key_sz),
            get_iv_sz: Some(get_iv_sz),
            get_block_sz: Some(get_block_sz),
            get_hmac_sz: Some(get_hmac_sz),
            ctx_init: Some(ctx_init),
            ctx_free: Some(ctx_free),
            fips_status: Some(fips_status),
            get_provider_version: Some(provider_version),
            next: std::ptr::null_mut(),
        };
        // SQLCipher frees its providers with `sqlcipher_free` at shutdown: allocate with its
        // allocator.
        // SAFETY: a fresh allocation of the struct's size, written whole before registering.
        unsafe {
            let slot = sqlcipher_malloc(std::mem::size_of::<Provider>() as u64) as *mut Provider;
            if slot.is_null() {
                return Installed::Stock("out of memory registering the page crypto".into());
            }
            slot.write(ours);
            match sqlcipher_register_provider(slot) {
                SQLITE_OK => {
                    let _ = OURS.set(Registered(slot));
                    Installed::Ours
                }
                rc => Installed::Stock(format!("SQLCipher refused the provider (code {rc})")),
            }
        }
    })
}

/// The stock provider must describe the cipher this one implements: AES-256 (32-byte keys,
/// 16-byte IVs and blocks) and SHA-256/SHA-512 tags.
fn check_shape(stock: &Provider) -> Result<(), String> {
    let (Some(key), Some(iv), Some(block), Some(tag)) =
        (stock.get_key_sz, stock.get_iv_sz, stock.get_block_sz, stock.get_hmac_sz)
    else {
        return Err("the stock provider lacks size getters".into());
    };
    // SAFETY: SQLCipher's getters ignore their context argument and read static tables.
    let sizes = unsafe {
        (
            key(std::ptr::null_mut()),
            iv(std::ptr::null_mut()),
            block(std::ptr::null_mut()),
            tag(std::ptr::null_mut(), HMAC_SHA256),
            tag(std::ptr::null_mut(), HMAC_SHA512),
        )
    };
    match sizes {
        (32, 16, 16, 32, 64) => Ok(()),
        other => Err(format!("the stock provider's cipher is not AES-256-CBC: sizes {other:?}")),
    }
}

/// One codec context's state: its own random generator (no lock shared between connections)
/// and the stock provider's context for what is called through.
struct CodecState {
    rng: ChaCha20Rng,
    stock: Ctx,
}

fn stock() -> Option<&'static Provider> {
    STOCK.get().map(|s| &s.0)
}

unsafe extern "C" fn ctx_init(ctx: *mut Ctx) -> c_int {
    if ctx.is_null() {
        return SQLITE_ERROR;
    }
    let Some(stock) = stock() else { return SQLITE_ERROR };
    let mut seed = Zeroizing::new([0u8; 32]);
    if getrandom::fill(seed.as_mut()).is_err() {
        return SQLITE_ERROR;
    }
    let mut stock_ctx: Ctx = std::ptr::null_mut();
    if let Some(init) = stock.ctx_init {
        // SAFETY: the stock provider's own context initialiser, given a slot to fill.
        let rc = unsafe { init(&mut stock_ctx) };
        if rc != SQLITE_OK {
            return rc;
        }
    }
    let state = Box::new(CodecState { rng: ChaCha20Rng::from_seed(*seed), stock: stock_ctx });
    // SAFETY: `ctx` is SQLCipher's slot for this codec's provider context.
    unsafe { *ctx = Box::into_raw(state) as Ctx };
    SQLITE_OK
}

unsafe extern "C" fn ctx_free(ctx: *mut Ctx) -> c_int {
    if ctx.is_null() {
        return SQLITE_OK;
    }
    // SAFETY: SQLCipher hands back the slot `ctx_init` filled, once.
    let raw = unsafe { *ctx } as *mut CodecState;
    if raw.is_null() {
        return SQLITE_OK;
    }
    // SAFETY: made by `Box::into_raw` in `ctx_init`, not freed before.
    let mut state = unsafe { Box::from_raw(raw) };
    // SAFETY: as above; the slot no longer points at freed memory.
    unsafe { *ctx = std::ptr::null_mut() };
    match stock().and_then(|s| s.ctx_free) {
        // SAFETY: the stock context this codec's `ctx_init` made.
        Some(free) => unsafe { free(&mut state.stock) },
        None => SQLITE_OK,
    }
}

/// The codec's state, or `None` for a context this provider did not make.
///
/// # Safety
/// `ctx` is null or a context made by [`ctx_init`], used by one connection at a time.
unsafe fn state<'a>(ctx: Ctx) -> Option<&'a mut CodecState> {
    // SAFETY: per the function's contract.
    unsafe { (ctx as *mut CodecState).as_mut() }
}

unsafe extern "C" fn random(ctx: Ctx, buffer: *mut c_void, length: c_int) -> c_int {
    let Ok(len) = usize::try_from(length) else { return SQLITE_ERROR };
    if len == 0 {
        return SQLITE_OK;
    }
    if buffer.is_null() {
        return SQLITE_ERROR;
    }
    // SAFETY: SQLCipher passes a writable buffer of `length` bytes.
    let out = unsafe { std::slice::from_raw_parts_mut(buffer as *mut u8, len) };
    // SAFETY: `ctx` is this provider's context (or null at SQLCipher's start-up).
    match unsafe { state(ctx) } {
        Some(state) => {
            state.rng.fill_bytes(out);
            SQLITE_OK
        }
        None => match getrandom::fill(out) {
            Ok(()) => SQLITE_OK,
            Err(_) => SQLITE_ERROR,
        },
    }
}

/// `PRAGMA cipher_add_random`: the bytes are mixed into the codec's generator (its next seed
/// is its own output hashed with them).
unsafe extern "C" fn add_random(ctx: Ctx, buffer: *const c_void, length: c_int) -> c_int {
    let Ok(len) = usize::try_from(length) else { return SQLITE_ERROR };
    // SAFETY: `ctx` is this provider's context.
    let Some(state) = (unsafe { state(ctx) }) else { return SQLITE_ERROR };
    if buffer.is_null() || len == 0 {
        return SQLITE_OK;
    }
    // SAFETY: SQLCipher passes `length` readable bytes.
    let extra = unsafe { std::slice::from_raw_parts(buffer as *const u8, len) };
    let mut own = Zeroizing::new([0u8; 32]);
    state.rng.fill_bytes(own.as_mut());
    use sha2::Digest as _;
    let mut hasher = Sha256::new();
    hasher.update(own.as_ref());
    hasher.update(extra);
    let mut seed = Zeroizing::new([0u8; 32]);
    seed.copy_from_slice(&hasher.finalize());
    state.rng = ChaCha20Rng::from_seed(*seed);
    SQLITE_OK
}

/// HMAC of `in` then `in2` (may be null) under `key`, written to `out` (the tag's length).
unsafe extern "C" fn hmac(
    ctx: Ctx,
    algorithm: c_int,
    key: *const u8,
    key_sz: c_int,
    input: *const u8,
    in_sz: c_int,
    in2: *const u8,
    in2_sz: c_int,
    out: *mut u8,
) -> c_int {
    if algorithm != HMAC_SHA256 && algorithm != HMAC_SHA512 {
        let Some(f) = stock().and_then(|s| s.hmac) else { return SQLITE_ERROR };
        // SAFETY: the stock provider's HMAC with SQLCipher's own arguments and its context.
        return unsafe {
            f(stock_ctx(ctx), algorithm, key, key_sz, input, in_sz, in2, in2_sz, out)
        };
    }
    // SAFETY: SQLCipher passes readable buffers of the given sizes (`in2` may be null).
    let (Some(key), Some(first)) = (unsafe { bytes(key, key_sz) }, unsafe { bytes(input, in_sz) })
    else {
        return SQLITE_ERROR;
    };
    let second = if in2.is_null() {
        &[][..]
    } else {
        // SAFETY: as above.
        match unsafe { bytes(in2, in2_sz) } {
            Some(b) => b,
            None => return SQLITE_ERROR,
        }
    };
    if out.is_null() {
        return SQLITE_ERROR;
    }
    let written = if algorithm == HMAC_SHA256 {
        tag::<Hmac<Sha256>>(key, first, second, out)
    } else {
        tag::<Hmac<Sha512>>(key, first, second, out)
    };
    if written { SQLITE_OK } else { SQLITE_ERROR }
}

/// Write the HMAC tag of `first ‖ second` to `out`, which holds the tag's length (SQLCipher
/// sized it with `get_hmac_sz`). The keyed state is wiped on drop (the `zeroize` features).
fn tag<M: Mac + KeyInit>(key: &[u8], first: &[u8], second: &[u8], out: *mut u8) -> bool {
    let Ok(mut mac) = <M as KeyInit>::new_from_slice(key) else { return false };
    mac.update(first);
    mac.update(second);
    let tag = mac.finalize().into_bytes();
    // SAFETY: `out` holds the tag's length; `tag` is a local buffer, so they cannot overlap.
    unsafe { std::ptr::copy_nonoverlapping(tag.as_ptr(), out, tag.len()) };
    true
}

/// AES-256-CBC without padding over `in_sz` bytes (a whole number of blocks) from `input` to
/// `out` (the same size; the two may be the same buffer).
unsafe extern "C" fn cipher(
    ctx: Ctx,
    mode: c_int,
    key: *const u8,
    key_sz: c_int,
    iv: *const u8,
    input: *const u8,
    in_sz: c_int,
    out: *mut u8,
) -> c_int {
    if usize::try_from(key_sz) != Ok(KEY_LEN) {
        let Some(f) = stock().and_then(|s| s.cipher) else { return SQLITE_ERROR };
        // SAFETY: the stock provider's cipher with SQLCipher's own arguments.
        return unsafe { f(stock_ctx(ctx), mode, key, key_sz, iv, input, in_sz, out) };
    }
    let Ok(len) = usize::try_from(in_sz) else { return SQLITE_ERROR };
    if len % BLOCK_LEN != 0 || out.is_null() || input.is_null() {
        return SQLITE_ERROR;
    }
    // SAFETY: SQLCipher passes a 32-byte key and an IV of one block.
    let (Some(key), Some(iv)) =
        (unsafe { bytes(key, key_sz) }, unsafe { bytes(iv, BLOCK_LEN as c_int) })
    else {
        return SQLITE_ERROR;
    };
    // Copy first and work in place, so an `input` that is `out` is never borrowed twice.
    // SAFETY: both buffers hold `len` bytes; `copy` allows overlap.
    unsafe { std::ptr::copy(input, out, len) };
    // SAFETY: `out` holds `len` writable bytes and nothing else refers to them now.
    let buf = unsafe { std::slice::from_raw_parts_mut(out, len) };
    let done = match mode {
        ENCRYPT => cbc::Encryptor::<Aes256>::new_from_slices(key, iv)
            .ok()
            .and_then(|c| c.encrypt_padded::<NoPadding>(buf, len).ok().map(|_| ())),
        DECRYPT => cbc::Decryptor::<Aes256>::new_from_slices(key, iv)
            .ok()
            .and_then(|c| c.decrypt_padded::<NoPadding>(buf).ok().map(|_| ())),
        _ => None,
    };
    match done {
        Some(()) => SQLITE_OK,
        None => SQLITE_ERROR,
    }
}

/// The stock provider's context inside ours (null when `ctx` is not ours).
fn stock_ctx(ctx: Ctx) -> Ctx {
    // SAFETY: `ctx` is null or this provider's context.
    unsafe { state(ctx) }.map_or(std::ptr::null_mut(), |s| s.stock)
}

/// `len` bytes at `ptr`, or `None` for a null pointer or a negative length.
///
/// # Safety
/// A non-null `ptr` points at `len` readable bytes that outlive the returned slice's use.
unsafe fn bytes<'a>(ptr: *const u8, len: c_int) -> Option<&'a [u8]> {
    let len = usize::try_from(len).ok()?;
    if ptr.is_null() {
        return (len == 0).then_some(&[][..]);
    }
    // SAFETY: per the function's contract.
    Some(unsafe { std::slice::from_raw_parts(ptr, len) })
}

// Called through to the system provider, with its own context (SQLCipher hands these ours).

unsafe extern "C" fn kdf(
    ctx: Ctx,
    algorithm: c_int,
    pass: *const u8,
    pass_sz: c_int,
    salt: *const u8,
    salt_sz: c_int,
    workfactor: c_int,
    key_sz: c_int,
    key: *mut u8,
) -> c_int {
    let Some(f) = stock().and_then(|s| s.kdf) else { return SQLITE_ERROR };
    // SAFETY: SQLCipher's own arguments, and the stock context this codec's `ctx_init` made.
    unsafe { f(stock_ctx(ctx), algorithm, pass, pass_sz, salt, salt_sz, workfactor, key_sz, key) }
}

unsafe extern "C" fn get_cipher(ctx: Ctx) -> *const c_char {
    match stock().and_then(|s| s.get_cipher) {
        // SAFETY: the stock getter with the stock context.
        Some(f) => unsafe { f(stock_ctx(ctx)) },
        None => c"aes-256-cbc".as_ptr(),
    }
}

/// A size getter of the stock provider (checked at install to describe AES-256-CBC).
fn stock_size(
    ctx: Ctx,
    pick: fn(&Provider) -> Option<unsafe extern "C" fn(Ctx) -> c_int>,
) -> c_int {
    match stock().and_then(pick) {
        // SAFETY: the stock getter with the stock context.
        Some(f) => unsafe { f(stock_ctx(ctx)) },
        None => 0,
    }
}

unsafe extern "C" fn get_key_sz(ctx: Ctx) -> c_int {
    stock_size(ctx, |p| p.get_key_sz)
}

unsafe extern "C" fn get_iv_sz(ctx: Ctx) -> c_int {
    stock_size(ctx, |p| p.get_iv_sz)
}

unsafe extern "C" fn get_block_sz(ctx: Ctx) -> c_int {
    stock_size(ctx, |p| p.get_block_sz)
}

unsafe extern "C" fn get_hmac_sz(ctx: Ctx, algorithm: c_int) -> c_int {
    match stock().and_then(|s| s.get_hmac_sz) {
        // SAFETY: the stock getter with the stock context.
        Some(f) => unsafe { f(stock_ctx(ctx), algorithm) },
        None => 0,
    }
}

unsafe extern "C" fn provider_name(_: Ctx) -> *const c_char {
    c"rustcrypto".as_ptr()
}

unsafe extern "C" fn provider_version(_: Ctx) -> *const c_char {
    c"aes 0.9, cbc 0.2, hmac 0.13, sha2 0.11 (key derivation: the system provider)".as_ptr()
}

unsafe extern "C" fn fips_status(_: Ctx) -> c_int {
    0
}

#[cfg(test)]
#[path = "page_crypto_tests.rs"]
mod tests;
