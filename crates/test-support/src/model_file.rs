//! A fake local model for the model downloader's tests: bytes that look like a GGUF file and
//! the catalogue entry (as JSON, the catalogue's own format) that names them with their size
//! and SHA-256.

use serde_json::{Value, json};
use sha2::{Digest as _, Sha256};

/// The GGUF magic, then deterministic pseudo-random bytes (`seed` picks which), `len` in all.
pub fn gguf_bytes(len: usize, seed: u64) -> Vec<u8> {
    let mut bytes = b"GGUF".to_vec();
    let mut x = seed.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
    while bytes.len() < len {
        x = x.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
        bytes.push((x >> 33) as u8);
    }
    bytes
}

/// The hex SHA-256 of `bytes`, as a catalogue entry names it.
pub fn sha256_hex(bytes: &[u8]) -> String {
    hex::encode(Sha256::digest(bytes))
}

/// A catalogue entry `tiny-q8_0` for `bytes` served at `url`.
pub fn catalog_entry(url: &str, bytes: &[u8]) -> Value {
    json!({
        "id": "tiny-q8_0",
        "name": "Tiny",
        "parameters": "100K",
        "quantization": "Q8_0",
        "url": url,
        "size_bytes": bytes.len() as u64,
        "sha256": sha256_hex(bytes),
        "license": "MIT",
        "license_url": null,
        "context_length": 256,
        "ram_bytes": 1 << 20,
    })
}
