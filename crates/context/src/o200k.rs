//! Exact `o200k_base` token counts without tiktoken's start-up cost: the vocabulary is a
//! lookup table made at build time (`build.rs`) and embedded in the binary, so nothing is
//! built when a process starts and only the pages a count touches are read in; the text is
//! split with tiktoken's own pattern and pieces are merged with its BPE rule, so the counts
//! are tiktoken's (a test compares them on mixed texts). Caching counts is the tokenizer's
//! job (`tokenizer.rs`), not this module's.

use std::sync::OnceLock;

use fancy_regex::Regex;

include!("o200k_table.in");

/// Entries of each thread's memo of short lookups (`1 << MEMO_BITS`, 64 KiB).
const MEMO_BITS: u32 = 12;

thread_local! {
    /// The ranks of short byte runs this thread looked up lately (`u32::MAX`: not a token),
    /// by their bytes packed with their length ([`memo_key`]); direct-mapped. The merge loop
    /// looks up the same runs again and again (a language's common characters and words), and
    /// each lookup in the table is several cache misses; an entry here is one cache line.
    static RANKS: std::cell::RefCell<Box<[(u64, u32)]>> =
        std::cell::RefCell::new(vec![(u64::MAX, 0); 1 << MEMO_BITS].into_boxed_slice());
}

/// A run of up to 7 bytes packed with its length into one word (the length byte keeps runs of
/// different lengths apart; no key has the memo's empty entry, `u64::MAX`); `None` for longer
/// runs.
fn memo_key(bytes: &[u8]) -> Option<u64> {
    if bytes.len() > 7 {
        return None;
    }
    let mut word = [0u8; 8];
    word[..bytes.len()].copy_from_slice(bytes);
    word[7] = bytes.len() as u8;
    Some(u64::from_le_bytes(word))
}

/// The table `build.rs` wrote.
static TABLE: &[u8] = include_bytes!(concat!(env!("OUT_DIR"), "/o200k.bin"));

/// tiktoken's `O200K_BASE_PAT_STR`: how text is split before merging.
const PATTERN: &str = concat!(
    r"[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]*[\p{Ll}\p{Lm}\p{Lo}\p{M}]+(?i:'s|'t|'re|'ve|'m|'ll|'d)?",
    "|",
    r"[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]+[\p{Ll}\p{Lm}\p{Lo}\p{M}]*(?i:'s|'t|'re|'ve|'m|'ll|'d)?",
    "|",
    r"\p{N}{1,3}",
    "|",
    r" ?[^\s\p{L}\p{N}]+[\r\n/]*",
    "|",
    r"\s*[\r\n]+",
    "|",
    r"\s+(?!\S)",
    "|",
    r"\s+"
);

/// Why the encoder could not be made (a damaged table or pattern: a build problem).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LoadError(pub String);

/// The o200k encoder over the embedded table.
pub struct O200k {
    #[cfg_attr(not(test), allow(dead_code))]
    tokens: usize,
    offsets: &'static [u8],
    slots: &'static [u8],
    pairs: &'static [u8],
    bytes: &'static [u8],
    regex: Regex,
}

fn u32_at(data: &[u8], index: usize) -> u32 {
    let at = index * 4;
    data.get(at..at + 4).and_then(|b| b.try_into().ok()).map(u32::from_le_bytes).unwrap_or(0)
}

impl O200k {
    /// The shared encoder; the first call compiles the split pattern (a few milliseconds).
    pub fn shared() -> Result<&'static O200k, LoadError> {
        static SHARED: OnceLock<Result<O200k, LoadError>> = OnceLock::new();
        SHARED.get_or_init(O200k::load).as_ref().map_err(Clone::clone)
    }

    fn load() -> Result<O200k, LoadError> {
        let bad = |what: &str| LoadError(format!("the embedded o200k table is damaged ({what})"));
        if TABLE.get(..8) != Some(TABLE_MAGIC.as_slice()) {
            return Err(bad("magic"));
        }
        let tokens = u32_at(TABLE, 2) as usize;
        let byte_len = u32_at(TABLE, 3) as usize;
        let offsets_at = 16;
        let slots_at = offsets_at + 4 * (tokens + 1);
        let pairs_at = slots_at + 4 * TABLE_SLOTS;
        let bytes_at = pairs_at + 4 * PAIR_SLOTS;
        if TABLE.len() != bytes_at + byte_len {
            return Err(bad("size"));
        }
        let regex = Regex::new(PATTERN).map_err(|e| LoadError(e.to_string()))?;
        Ok(O200k {
            tokens,
            offsets: &TABLE[offsets_at..slots_at],
            slots: &TABLE[slots_at..pairs_at],
            pairs: &TABLE[pairs_at..bytes_at],
            bytes: &TABLE[bytes_at..],
            regex,
        })
    }

    /// The bytes of token `rank`.
    fn token(&self, rank: u32) -> &'static [u8] {
        let (start, end) = (
            u32_at(self.offsets, rank as usize) as usize,
            u32_at(self.offsets, rank as usize + 1) as usize,
        );
        self.bytes.get(start..end).unwrap_or_default()
    }

    /// The rank of the token `[a, b]`, or `u32::MAX` when the pair is not a token.
    #[inline]
    fn pair_rank(&self, a: u8, b: u8) -> u32 {
        u32_at(self.pairs, usize::from(a) << 8 | usize::from(b)).wrapping_sub(1)
    }

    /// The rank of the token with these bytes, if the vocabulary has one.
    fn rank(&self, bytes: &[u8]) -> Option<u32> {
        if let [a, b] = bytes {
            return Some(self.pair_rank(*a, *b)).filter(|&r| r != u32::MAX);
        }
        let Some(key) = memo_key(bytes) else { return self.rank_in_table(bytes) };
        let slot = (key.wrapping_mul(0x9e37_79b9_7f4a_7c15) >> (64 - MEMO_BITS)) as usize;
        RANKS.with(|memo| {
            let mut memo = memo.borrow_mut();
            let (stored, rank) = memo[slot];
            if stored == key {
                return Some(rank).filter(|&r| r != u32::MAX);
            }
            let found = self.rank_in_table(bytes);
            memo[slot] = (key, found.unwrap_or(u32::MAX));
            found
        })
    }

    /// [`O200k::rank`] from the table itself.
    fn rank_in_table(&self, bytes: &[u8]) -> Option<u32> {
        let (mut slot, fingerprint) = table_slot(bytes);
        loop {
            let stored = u32_at(self.slots, slot);
            if stored == 0 {
                return None;
            }
            // Only a slot with this fingerprint can hold these bytes: others are skipped
            // without reading their token.
            if stored & !RANK_MASK == fingerprint {
                let rank = (stored & RANK_MASK) - 1;
                if self.token(rank) == bytes {
                    return Some(rank);
                }
            }
            slot = (slot + 1) & (TABLE_SLOTS - 1);
        }
    }

    /// Tokens in the vocabulary (ordinary ones: no special tokens).
    #[cfg(test)]
    pub fn vocabulary_size(&self) -> usize {
        self.tokens
    }

    /// The byte length of each token of `text`, in order (their sum is `text.len()`).
    /// A piece the split pattern gives up on (pathological input) counts one token per byte,
    /// an upper bound.
    pub fn token_lengths(&self, text: &str, out: &mut Vec<u32>) {
        let mut done = 0;
        for found in self.regex.find_iter(text) {
            let Ok(m) = found else { break };
            done = m.end();
            self.piece(m.as_str().as_bytes(), out);
        }
        out.extend(std::iter::repeat_n(1, text.len() - done));
    }

    /// Tokens in `text` (tiktoken's `encode_ordinary(text).len()`).
    pub fn count(&self, text: &str) -> usize {
        let mut n = 0;
        let mut done = 0;
        let mut lengths = Vec::new();
        for found in self.regex.find_iter(text) {
            let Ok(m) = found else { break };
            done = m.end();
            let piece = m.as_str().as_bytes();
            if piece.len() == 1 || self.rank(piece).is_some() {
                n += 1;
            } else {
                lengths.clear();
                self.merge(piece, &mut lengths);
                n += lengths.len();
            }
        }
        n + (text.len() - done)
    }

    fn piece(&self, piece: &[u8], out: &mut Vec<u32>) {
        if piece.len() == 1 || self.rank(piece).is_some() {
            out.push(piece.len() as u32);
        } else {
            self.merge(piece, out);
        }
    }

    /// tiktoken's byte-pair merge of one piece: repeatedly join the adjacent pair whose joined
    /// bytes have the lowest rank (the leftmost on a tie) until no pair is a token. Pushes the
    /// byte length of each resulting token.
    fn merge(&self, piece: &[u8], out: &mut Vec<u32>) {
        // As tiktoken's `_byte_pair_merge`: part `i` starts at `starts[i]`, and `ranks[i]` is
        // the rank of the part joined with the next one. Kept apart so the search for the
        // lowest rank runs over a plain array of u32s.
        let n = piece.len();
        let mut starts: Vec<usize> = (0..=n).collect();
        let mut ranks: Vec<u32> = Vec::with_capacity(n);
        ranks.extend(piece.windows(2).map(|w| self.pair_rank(w[0], w[1])));
        ranks.push(u32::MAX);
        // The rank of parts j, j + 1 and j + 2 joined (j + 1 is being merged into j).
        let joined = |starts: &[usize], j: usize| {
            if j + 3 < starts.len() {
                self.rank(&piece[starts[j]..starts[j + 3]]).unwrap_or(u32::MAX)
            } else {
                u32::MAX
            }
        };
        loop {
            // The last entry stands for the end of the piece: nothing joins it.
            let live = &ranks[..ranks.len() - 1];
            let min = live.iter().copied().min().unwrap_or(u32::MAX);
            if min == u32::MAX {
                break;
            }
            let i = live.iter().position(|&r| r == min).unwrap_or(0);
            if i > 0 {
                ranks[i - 1] = joined(&starts, i - 1);
            }
            ranks[i] = joined(&starts, i);
            starts.remove(i + 1);
            ranks.remove(i + 1);
        }
        out.extend(starts.windows(2).map(|w| (w[1] - w[0]) as u32));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn o() -> &'static O200k {
        O200k::shared().unwrap()
    }

    #[test]
    fn the_table_holds_every_ordinary_token() {
        assert_eq!(o().vocabulary_size(), 199_998);
        assert_eq!(o().rank(b"hello"), Some(24912));
        assert_eq!(o().rank(b"!"), Some(0));
        for rank in [0u32, 1, 1000, 100_000, 199_997] {
            assert_eq!(o().rank(o().token(rank)), Some(rank));
        }
        assert_eq!(o().rank(b"no such token in any vocabulary"), None);
    }

    #[test]
    fn token_lengths_cover_the_text() {
        let text = "你好，我最近工作压力很大。Hello world!\n\n  indented 12345";
        let mut lengths = Vec::new();
        o().token_lengths(text, &mut lengths);
        assert_eq!(lengths.iter().map(|&l| l as usize).sum::<usize>(), text.len());
        assert_eq!(lengths.len(), o().count(text));
    }
}
