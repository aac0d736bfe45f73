//! Writes the o200k vocabulary as a ready-made lookup table (`$OUT_DIR/o200k.bin`), embedded
//! by `src/o200k.rs`: a process then counts tokens without building tiktoken's hash maps
//! (0.2 s of CPU and about 50 MB at every start). The table's layout and hash are in
//! `src/o200k_table.in`, shared with the reader.
//!
//! Layout (little-endian u32s): magic (8 bytes), token count N, bytes length B, then N + 1
//! offsets into the token bytes (token r is `bytes[offsets[r]..offsets[r + 1]]`), then
//! `TABLE_SLOTS` slots holding a fingerprint of the token's bytes above rank + 1 (0 = empty,
//! linear probing), then `PAIR_SLOTS` entries holding the rank + 1 of each two-byte token at
//! `a << 8 | b` (0 = not a token), then the B token bytes.

// A build script has no one to return an error to: failing loudly is its way to report.
#![allow(clippy::expect_used)]

include!("src/o200k_table.in");

fn main() {
    println!("cargo:rerun-if-changed=build.rs");
    println!("cargo:rerun-if-changed=src/o200k_table.in");
    let bpe = tiktoken_rs::o200k_base().expect("tiktoken-rs ships o200k_base");
    // o200k_base's ordinary tokens are ranks 0..199_998; the special ones come after.
    let mut tokens: Vec<Vec<u8>> = Vec::new();
    for rank in 0u32.. {
        match bpe.decode_bytes(&[rank]) {
            Ok(bytes) if rank < 199_998 => tokens.push(bytes),
            _ => break,
        }
    }
    assert_eq!(tokens.len(), 199_998, "o200k_base has 199,998 ordinary tokens");
    let mut offsets = Vec::with_capacity(tokens.len() + 1);
    let mut bytes = Vec::new();
    for t in &tokens {
        offsets.push(u32::try_from(bytes.len()).expect("fits"));
        bytes.extend_from_slice(t);
    }
    offsets.push(u32::try_from(bytes.len()).expect("fits"));
    let mut slots = vec![0u32; TABLE_SLOTS];
    for (rank, t) in tokens.iter().enumerate() {
        let (mut slot, fingerprint) = table_slot(t);
        while slots[slot] != 0 {
            slot = (slot + 1) & (TABLE_SLOTS - 1);
        }
        let stored = u32::try_from(rank).expect("fits") + 1;
        assert!(stored <= RANK_MASK, "ranks fit below the fingerprint");
        slots[slot] = fingerprint | stored;
    }
    let mut pairs = vec![0u32; PAIR_SLOTS];
    for (rank, t) in tokens.iter().enumerate() {
        if let [a, b] = t.as_slice() {
            pairs[usize::from(*a) << 8 | usize::from(*b)] = u32::try_from(rank).expect("fits") + 1;
        }
    }
    let mut out =
        Vec::with_capacity(16 + 4 * (offsets.len() + slots.len() + pairs.len()) + bytes.len());
    out.extend_from_slice(TABLE_MAGIC);
    out.extend_from_slice(&u32::try_from(tokens.len()).expect("fits").to_le_bytes());
    out.extend_from_slice(&u32::try_from(bytes.len()).expect("fits").to_le_bytes());
    for o in offsets.iter().chain(&slots).chain(&pairs) {
        out.extend_from_slice(&o.to_le_bytes());
    }
    out.extend_from_slice(&bytes);
    let dir = std::env::var_os("OUT_DIR").expect("cargo sets OUT_DIR");
    std::fs::write(std::path::Path::new(&dir).join("o200k.bin"), out).expect("write o200k.bin");
}
