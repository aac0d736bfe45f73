//! The page crypto against SQLCipher's stock provider: the same bytes out for the same key, IV
//! and page, and database files either provider writes open with the other.

use super::*;
use rusqlite::Connection;

/// SQLite initialised and this provider installed; the stock one to compare with.
fn providers() -> (Provider, Provider) {
    drop(Connection::open_in_memory().unwrap());
    assert_eq!(install(), &Installed::Ours);
    // SAFETY: registered by `install`, valid for the process. (Not the default provider:
    // another test may have made the stock one the default for a moment.)
    let ours = unsafe { *OURS.get().unwrap().0 };
    (ours, stock().unwrap().to_owned())
}

fn random_bytes(len: usize) -> Vec<u8> {
    let mut out = vec![0u8; len];
    getrandom::fill(&mut out).unwrap();
    out
}

/// A provider context, freed on drop.
struct Context(Ctx, Provider);
impl Context {
    fn new(p: Provider) -> Self {
        let mut ctx: Ctx = std::ptr::null_mut();
        // SAFETY: the provider's own initialiser.
        assert_eq!(unsafe { p.ctx_init.unwrap()(&mut ctx) }, SQLITE_OK);
        Self(ctx, p)
    }
}
impl Drop for Context {
    fn drop(&mut self) {
        // SAFETY: the context this provider made.
        unsafe { self.1.ctx_free.unwrap()(&mut self.0) };
    }
}

fn run_cipher(
    p: &Provider,
    ctx: Ctx,
    mode: c_int,
    key: &[u8],
    iv: &[u8],
    input: &[u8],
) -> (c_int, Vec<u8>) {
    let mut out = vec![0u8; input.len()];
    // SAFETY: buffers of the sizes passed.
    let rc = unsafe {
        p.cipher.unwrap()(
            ctx,
            mode,
            key.as_ptr(),
            key.len() as c_int,
            iv.as_ptr(),
            input.as_ptr(),
            input.len() as c_int,
            out.as_mut_ptr(),
        )
    };
    (rc, out)
}

fn run_hmac(
    p: &Provider,
    ctx: Ctx,
    algorithm: c_int,
    key: &[u8],
    first: &[u8],
    second: Option<&[u8]>,
) -> Vec<u8> {
    let mut out = vec![0u8; 64];
    let (in2, in2_sz) = second.map_or((std::ptr::null(), 0), |s| (s.as_ptr(), s.len() as c_int));
    // SAFETY: buffers of the sizes passed; 64 bytes hold any tag.
    let rc = unsafe {
        p.hmac.unwrap()(
            ctx,
            algorithm,
            key.as_ptr(),
            key.len() as c_int,
            first.as_ptr(),
            first.len() as c_int,
            in2,
            in2_sz,
            out.as_mut_ptr(),
        )
    };
    assert_eq!(rc, SQLITE_OK, "hmac algorithm {algorithm}");
    out
}

#[test]
fn pages_encrypt_and_decrypt_to_the_stock_providers_bytes() {
    let (ours, stock) = providers();
    let (a, b) = (Context::new(ours), Context::new(stock));
    // A page's encrypted part in the current format (2,048 − 48 bytes of reserve), the earlier
    // one (4,096 − 80) and a single block.
    for len in [2000, 4016, 16] {
        let (key, iv, page) = (random_bytes(32), random_bytes(16), random_bytes(len));
        let (rc, mine) = run_cipher(&ours, a.0, ENCRYPT, &key, &iv, &page);
        assert_eq!(rc, SQLITE_OK);
        let (rc, theirs) = run_cipher(&stock, b.0, ENCRYPT, &key, &iv, &page);
        assert_eq!(rc, SQLITE_OK);
        assert_eq!(mine, theirs, "encrypting {len} bytes");
        assert_ne!(mine, page);
        let (rc, back) = run_cipher(&ours, a.0, DECRYPT, &key, &iv, &theirs);
        assert_eq!((rc, &back), (SQLITE_OK, &page), "decrypting {len} bytes");
    }
}

#[test]
fn encrypting_in_place_gives_the_same_bytes() {
    let (ours, _) = providers();
    let ctx = Context::new(ours);
    let (key, iv, page) = (random_bytes(32), random_bytes(16), random_bytes(2000));
    let (_, expected) = run_cipher(&ours, ctx.0, ENCRYPT, &key, &iv, &page);
    let mut buf = page.clone();
    let p = buf.as_mut_ptr();
    // SAFETY: one buffer as input and output, as the provider allows.
    let rc = unsafe { cipher(ctx.0, ENCRYPT, key.as_ptr(), 32, iv.as_ptr(), p, 2000, p) };
    assert_eq!((rc, buf), (SQLITE_OK, expected));
}

#[test]
fn page_tags_equal_the_stock_providers() {
    let (ours, stock) = providers();
    let (a, b) = (Context::new(ours), Context::new(stock));
    let (key, page, pgno) = (random_bytes(32), random_bytes(2016), 7u32.to_le_bytes());
    // SHA-1 is the stock provider's, called through: the same answer too.
    for algorithm in [HMAC_SHA256, HMAC_SHA512, 0] {
        for second in [Some(&pgno[..]), None] {
            assert_eq!(
                run_hmac(&ours, a.0, algorithm, &key, &page, second),
                run_hmac(&stock, b.0, algorithm, &key, &page, second),
                "algorithm {algorithm}, second input {second:?}"
            );
        }
    }
}

#[test]
fn malformed_calls_fail_without_touching_memory_they_were_not_given() {
    let (ours, _) = providers();
    let ctx = Context::new(ours);
    let (key, iv) = (random_bytes(32), random_bytes(16));
    // Not a whole number of blocks: no padding is SQLCipher's contract.
    assert_eq!(run_cipher(&ours, ctx.0, ENCRYPT, &key, &iv, &random_bytes(100)).0, SQLITE_ERROR);
    assert_eq!(run_cipher(&ours, ctx.0, 7, &key, &iv, &random_bytes(32)).0, SQLITE_ERROR);
    let page = random_bytes(32);
    // SAFETY: a negative length and a null output are refused before any access.
    unsafe {
        let mut out = [0u8; 32];
        let o = out.as_mut_ptr();
        assert_eq!(
            cipher(ctx.0, ENCRYPT, key.as_ptr(), 32, iv.as_ptr(), page.as_ptr(), -16, o),
            SQLITE_ERROR
        );
        let null = std::ptr::null_mut();
        assert_eq!(
            cipher(ctx.0, ENCRYPT, key.as_ptr(), 32, iv.as_ptr(), page.as_ptr(), 32, null),
            SQLITE_ERROR
        );
        assert_eq!(random(ctx.0, o as *mut c_void, -1), SQLITE_ERROR);
        assert_eq!(
            hmac(ctx.0, HMAC_SHA256, key.as_ptr(), 32, std::ptr::null(), 5, std::ptr::null(), 0, o),
            SQLITE_ERROR
        );
    }
}

#[test]
fn every_codec_draws_different_random_bytes() {
    let (ours, _) = providers();
    let (a, b) = (Context::new(ours), Context::new(ours));
    let draw = |ctx: &Context| {
        let mut iv = [0u8; 48];
        // SAFETY: a 48-byte buffer, as for a page's reserve.
        assert_eq!(unsafe { random(ctx.0, iv.as_mut_ptr() as *mut c_void, 48) }, SQLITE_OK);
        iv
    };
    let (first, second, other) = (draw(&a), draw(&a), draw(&b));
    assert_ne!(first, second);
    assert_ne!(first, other);
    assert_ne!(first, [0u8; 48]);
    let extra = b"entropy from the application";
    // SAFETY: the bytes and their length.
    assert_eq!(
        unsafe { add_random(a.0, extra.as_ptr() as *const c_void, extra.len() as c_int) },
        SQLITE_OK
    );
    assert_ne!(draw(&a), second);
}

/// Open `path` keyed like the store's current format and name the provider its codec uses.
fn keyed(path: &std::path::Path, key: &str) -> (Connection, String) {
    let conn = Connection::open(path).unwrap();
    conn.pragma_update(None, "key", key).unwrap();
    conn.pragma_update(None, "cipher_hmac_algorithm", "HMAC_SHA256").unwrap();
    conn.pragma_update(None, "cipher_page_size", 2048).unwrap();
    let provider = conn.query_row("PRAGMA cipher_provider", [], |r| r.get(0)).unwrap();
    (conn, provider)
}

/// Make `p` SQLCipher's default provider (it is already on its list).
fn make_default(p: *mut Provider) {
    // SAFETY: `p` is a provider SQLCipher already holds; registering it again moves it first.
    assert_eq!(unsafe { sqlcipher_register_provider(p) }, SQLITE_OK);
}

#[test]
fn files_either_provider_writes_open_with_the_other() {
    providers();
    let ours = OURS.get().unwrap().0;
    // SAFETY: ours was registered over the stock provider, which is next on its list.
    let stock = unsafe { (*ours).next };
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("both.db");
    let key = "x'2b7e151628aed2a6abf7158809cf4f3c2b7e151628aed2a6abf7158809cf4f3c'";
    let rows = |conn: &Connection| -> Vec<String> {
        let mut stmt = conn.prepare("SELECT body FROM notes ORDER BY id").unwrap();
        stmt.query_map([], |r| r.get(0)).unwrap().map(Result::unwrap).collect()
    };
    // Connections made while the stock provider is the default use it (other tests running
    // meanwhile get it too: the bytes are the same, which is what this test shows).
    make_default(stock);
    let (conn, name) = keyed(&path, key);
    make_default(ours);
    assert_ne!(name, "rustcrypto");
    conn.execute_batch("CREATE TABLE notes(id INTEGER PRIMARY KEY, body TEXT)").unwrap();
    for i in 1..=40 {
        let body = format!("第 {i} 条：{}", hex::encode(random_bytes(300)));
        conn.execute("INSERT INTO notes(body) VALUES (?1)", [body]).unwrap();
    }
    let written = rows(&conn);
    drop(conn);

    let (conn, name) = keyed(&path, key);
    assert_eq!(name, "rustcrypto");
    assert_eq!(rows(&conn), written);
    conn.execute("INSERT INTO notes(body) VALUES ('ours')", []).unwrap();
    conn.execute("UPDATE notes SET body = body || '!' WHERE id % 3 = 0", []).unwrap();
    let rewritten = rows(&conn);
    drop(conn);

    make_default(stock);
    let (conn, name) = keyed(&path, key);
    make_default(ours);
    assert_ne!(name, "rustcrypto");
    assert_eq!(rows(&conn), rewritten);
    // Every page's tag checks out (the pragma lists the pages that do not).
    let mut check = conn.prepare("PRAGMA cipher_integrity_check").unwrap();
    let failures: Vec<String> =
        check.query_map([], |r| r.get(0)).unwrap().map(Result::unwrap).collect();
    assert!(failures.is_empty(), "{failures:?}");
}
