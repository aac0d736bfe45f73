//! Token counting with a real BPE tokenizer (`o200k_base`, exact, from a table built into the
//! binary: `o200k.rs`) and a cache of counts by text hash, so the static parts of a prompt (skill bodies, rules,
//! tool definitions) are tokenised once and only what changed is counted again. Deciding what
//! goes into a prompt does not belong here.

use std::collections::HashMap;
use std::hash::{BuildHasher, Hash, Hasher};
use std::sync::{Arc, Mutex, OnceLock, PoisonError};

use vibe_llm::{Message, ToolDef};

use super::o200k::O200k;
use crate::ContextError;

/// Tokens a chat message costs beyond its text (role and framing), as in OpenAI's accounting.
pub const MESSAGE_OVERHEAD: u32 = 4;
/// Tokens one tool call or one tool definition costs beyond its JSON text.
pub const TOOL_OVERHEAD: u32 = 8;
/// Texts shorter than this are counted directly. Even a short text costs the tokenizer's
/// regex a microsecond or more, against tens of nanoseconds for a cache lookup, so only the
/// empty text skips the cache.
const CACHE_MIN_BYTES: usize = 1;
/// The cache is emptied when it holds this many counts (a crude but bounded policy: static
/// texts are counted again once, everything else was one-off anyway).
const CACHE_CAP: usize = 16_384;
/// Long texts are encoded in pieces of about this size, cut after a newline, so the
/// tokenizer's regex never works on a huge input at once.
const PIECE_BYTES: usize = 16 * 1024;

/// Cache counters, for tests and benchmarks.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct TokenizerStats {
    pub hits: u64,
    pub misses: u64,
    pub entries: usize,
}

/// Tool schemas whose hash is kept (by allocation) before the map is emptied.
const SCHEMA_CAP: usize = 256;

#[derive(Default)]
struct Cache {
    counts: HashMap<(u64, usize), u32>,
    /// The hash of each tool schema seen, by its allocation: definitions share their schema
    /// (`ToolDef.parameters` is an `Arc`), so a schema is walked once, not on every prompt.
    /// The entry holds the `Arc`, so no other schema can take its address while it lives.
    schemas: HashMap<usize, (Arc<serde_json::Value>, u64)>,
    hits: u64,
    misses: u64,
}

/// The process-wide tokenizer. Get it with [`Tokenizer::shared`].
pub struct Tokenizer {
    bpe: &'static O200k,
    cache: Mutex<Cache>,
}

static SHARED: OnceLock<Result<Tokenizer, String>> = OnceLock::new();

/// The cache key of a text: a fast 64-bit hash (the prompt's long static texts are hashed on
/// every call, so the hash must cost far less than tokenising) and the length.
fn key(text: &str) -> (u64, usize) {
    (HASH.hash_one(text), text.len())
}

/// Feed a JSON value to `h`, structure included (so `["a","b"]` and `["ab"]` differ).
fn hash_value(value: &serde_json::Value, h: &mut impl Hasher) {
    use serde_json::Value;
    match value {
        Value::Null => h.write_u8(0),
        Value::Bool(b) => {
            h.write_u8(1);
            b.hash(h);
        }
        Value::Number(n) => {
            h.write_u8(2);
            // Its value, not its text (no allocation); 1 and 1.0 differ by kind.
            match (n.as_u64(), n.as_i64(), n.as_f64()) {
                (Some(u), ..) => (0u8, u).hash(h),
                (None, Some(i), _) => (1u8, i).hash(h),
                (None, None, f) => (2u8, f.unwrap_or(f64::NAN).to_bits()).hash(h),
            }
        }
        Value::String(s) => {
            h.write_u8(3);
            s.hash(h);
        }
        Value::Array(items) => {
            h.write_u8(4);
            h.write_usize(items.len());
            items.iter().for_each(|v| hash_value(v, h));
        }
        Value::Object(map) => {
            h.write_u8(5);
            h.write_usize(map.len());
            for (k, v) in map {
                k.hash(h);
                hash_value(v, h);
            }
        }
    }
}

/// Fixed seed: the same text always has the same key.
static HASH: foldhash::quality::FixedState = foldhash::quality::FixedState::with_seed(0x5eed_7043);

/// Split `text` into pieces of about [`PIECE_BYTES`], each ending after a newline when one is
/// near (so pieces join exactly where the tokenizer would split anyway).
fn pieces(text: &str) -> impl Iterator<Item = &str> {
    let mut rest = text;
    std::iter::from_fn(move || {
        if rest.is_empty() {
            return None;
        }
        if rest.len() <= PIECE_BYTES {
            return Some(std::mem::take(&mut rest));
        }
        let mut cut = PIECE_BYTES;
        while !rest.is_char_boundary(cut) {
            cut -= 1;
        }
        let cut =
            rest[..cut].rfind('\n').map(|i| i + 1).filter(|&i| i > PIECE_BYTES / 2).unwrap_or(cut);
        let (head, tail) = rest.split_at(cut);
        rest = tail;
        Some(head)
    })
}

impl Tokenizer {
    /// The shared tokenizer. The vocabulary is built into the binary; the first call only
    /// compiles the split pattern (a few milliseconds).
    pub fn shared() -> Result<&'static Tokenizer, ContextError> {
        SHARED
            .get_or_init(|| {
                O200k::shared()
                    .map(|bpe| Tokenizer { bpe, cache: Mutex::new(Cache::default()) })
                    .map_err(|e| e.0)
            })
            .as_ref()
            .map_err(|e| ContextError::Tokenizer(e.clone()))
    }

    fn cache(&self) -> std::sync::MutexGuard<'_, Cache> {
        self.cache.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Tokens in `text`, from the cache when this exact text was counted before.
    pub fn count(&self, text: &str) -> u32 {
        if text.len() < CACHE_MIN_BYTES {
            return self.count_uncached(text);
        }
        let k = key(text);
        {
            let mut cache = self.cache();
            if let Some(&n) = cache.counts.get(&k) {
                cache.hits += 1;
                return n;
            }
            cache.misses += 1;
        }
        let n = self.count_uncached(text);
        self.remember(k, n);
        n
    }

    /// Keep a count (emptying the cache when it is full).
    fn remember(&self, k: (u64, usize), n: u32) {
        let mut cache = self.cache();
        if cache.counts.len() >= CACHE_CAP {
            cache.counts.clear();
        }
        cache.counts.insert(k, n);
    }

    /// Tokens in `text` counted line by line (each line through the cache, plus one per
    /// newline), so a text that grows by lines — a summary, a list — is tokenised only in its
    /// new lines. The tokenizer never merges a newline into a word, so this matches
    /// [`Tokenizer::count`] or exceeds it by a token where punctuation and a newline merge.
    pub fn count_lines(&self, text: &str) -> u32 {
        let mut lines = 0u32;
        let mut total = 0u32;
        for line in text.split('\n') {
            lines += 1;
            total += self.count(line);
        }
        total + lines.saturating_sub(1) * self.count("\n")
    }

    /// Tokens in `text`, always encoding it.
    pub fn count_uncached(&self, text: &str) -> u32 {
        let n: usize = pieces(text).map(|p| self.bpe.count(p)).sum();
        u32::try_from(n).unwrap_or(u32::MAX)
    }

    /// The longest prefix of `text` of at most `max` tokens, cut on a character boundary.
    pub fn truncate<'a>(&self, text: &'a str, max: u32) -> &'a str {
        let mut used = 0usize;
        let mut budget = max as usize;
        let mut lengths = Vec::new();
        for piece in pieces(text) {
            lengths.clear();
            self.bpe.token_lengths(piece, &mut lengths);
            if lengths.len() <= budget {
                used += piece.len();
                budget -= lengths.len();
                continue;
            }
            let bytes: usize = lengths[..budget].iter().map(|&l| l as usize).sum();
            let mut end = used + bytes.min(piece.len());
            while !text.is_char_boundary(end) {
                end -= 1;
            }
            return &text[..end];
        }
        text
    }

    /// Tokens of one chat message: its text, its tool calls (name and arguments), and the
    /// framing. Used for `messages.token_count`.
    pub fn count_message(&self, message: &Message) -> u32 {
        let body = match message {
            Message::System { content } | Message::User { content } => self.count(content),
            Message::Assistant { content, tool_calls } => {
                self.count(content)
                    + tool_calls
                        .iter()
                        .map(|c| self.count(&c.name) + self.count(&c.arguments) + TOOL_OVERHEAD)
                        .sum::<u32>()
            }
            Message::Tool { tool_call_id, content } => {
                self.count(tool_call_id) + self.count(content)
            }
        };
        body + MESSAGE_OVERHEAD
    }

    /// Tokens of one tool definition as sent to the model (its JSON plus framing).
    /// Cached by the definition's content (walked, not serialised: the same definitions are
    /// counted on every model call).
    pub fn count_tool(&self, tool: &ToolDef) -> u32 {
        let mut h = HASH.build_hasher();
        tool.name.hash(&mut h);
        tool.description.hash(&mut h);
        let k = {
            let mut cache = self.cache();
            let at = Arc::as_ptr(&tool.parameters) as usize;
            let schema = match cache.schemas.get(&at) {
                Some((_, schema)) => *schema,
                None => {
                    let mut s = HASH.build_hasher();
                    hash_value(&tool.parameters, &mut s);
                    let schema = s.finish();
                    if cache.schemas.len() >= SCHEMA_CAP {
                        cache.schemas.clear();
                    }
                    cache.schemas.insert(at, (tool.parameters.clone(), schema));
                    schema
                }
            };
            h.write_u64(schema);
            // A length no text has keeps these keys apart from the texts'.
            let k = (h.finish(), usize::MAX);
            if let Some(&n) = cache.counts.get(&k) {
                return n;
            }
            k
        };
        let json = serde_json::to_string(tool).unwrap_or_default();
        let n = self.count(&json) + TOOL_OVERHEAD;
        self.remember(k, n);
        n
    }

    /// Cache counters.
    pub fn stats(&self) -> TokenizerStats {
        let cache = self.cache();
        TokenizerStats { hits: cache.hits, misses: cache.misses, entries: cache.counts.len() }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use vibe_llm::ToolCall;

    fn tk() -> &'static Tokenizer {
        Tokenizer::shared().unwrap()
    }

    #[test]
    fn counts_known_texts_with_o200k() {
        assert_eq!(tk().count("hello world"), 2);
        assert_eq!(tk().count(""), 0);
        // Chinese text costs roughly one token per one or two characters.
        let n = tk().count("你好，我最近工作压力很大，晚上总是睡不着。");
        assert!((8..=22).contains(&n), "{n}");
    }

    #[test]
    fn repeated_long_texts_hit_the_cache() {
        let text = "这是一段会被反复计数的技能正文。".repeat(20);
        let before = tk().stats();
        let a = tk().count(&text);
        let b = tk().count(&text);
        let after = tk().stats();
        assert_eq!(a, b);
        assert_eq!(a, tk().count_uncached(&text));
        assert!(after.hits > before.hits);
    }

    #[test]
    fn long_texts_are_counted_in_pieces_without_drift() {
        let line = "Line of a long rules file, with words and 数字 123.\n";
        let text = line.repeat(2000);
        let whole = tiktoken_rs::o200k_base().unwrap().encode_ordinary(&text).len() as u32;
        assert_eq!(tk().count_uncached(&text), whole);
    }

    /// Texts of every kind the prompt holds: Chinese and English prose, JSON, Markdown,
    /// numbers, emoji, odd whitespace, contractions, long runs without spaces.
    fn corpus() -> Vec<String> {
        let mut texts = vec![
            "你好，我最近工作压力很大，晚上总是睡不着。".to_string(),
            "Hello world! I'm fine, you're great, they'll see; we'd've DONE it.".to_string(),
            "{\"section\": \"progress\", \"data\": {\"streak\": 12, \"note\": \"坚持晨跑第 12 天\"}}".to_string(),
            "## 规则\n\n- 先确认出生信息（年、月、日、时）\n- 再解读命盘\n\n```python\nprint('hi')\n```\n".to_string(),
            "  indented\ttabs\r\nwindows lines   \n\n\n   trailing   ".to_string(),
            "1234567890 3.14159 2026-11-23T17:06:23Z +86 138-0000-0000".to_string(),
            "emoji 😀👍🏽 and combining e\u{301} marks, ÀÉÎÕÜ ß ﬁ".to_string(),
            "八字命理咨询师会先确认出生信息再解读命盘并给出温和而具体的建议".repeat(40),
            "Ünïcödé ЗДРАВСТВУЙТЕ мир مرحبا בעולם नमस्ते こんにちは 안녕하세요".to_string(),
            "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa".repeat(5),
            "CamelCaseIdentifiers and snake_case_names, URLs like https://example.com/a?b=c#d".to_string(),
            String::new(),
            " ".to_string(),
            "\n".to_string(),
        ];
        texts.push(include_str!("texts.rs").to_string());
        texts.push(include_str!("catalog.rs").to_string());
        texts
    }

    #[test]
    fn counts_and_cuts_are_tiktokens_exactly() {
        let reference = tiktoken_rs::o200k_base().unwrap();
        for text in corpus() {
            let want = reference.encode_ordinary(&text);
            assert_eq!(tk().count_uncached(&text) as usize, want.len(), "{text:?}");
            for max in [0usize, 1, 7, 50, want.len().saturating_sub(1)] {
                let cut = tk().truncate(&text, max as u32);
                let decoded = reference.decode_bytes(&want[..max.min(want.len())]).unwrap();
                let mut end = decoded.len().min(text.len());
                while !text.is_char_boundary(end) {
                    end -= 1;
                }
                assert_eq!(cut, &text[..end], "{max} tokens of {text:?}");
            }
        }
    }

    /// tiktoken's encoder, built once for the tests (it takes a fifth of a second).
    fn reference() -> &'static tiktoken_rs::CoreBPE {
        static REFERENCE: OnceLock<tiktoken_rs::CoreBPE> = OnceLock::new();
        REFERENCE.get_or_init(|| tiktoken_rs::o200k_base().unwrap())
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(400))]
        /// Random mixes of what the split pattern treats differently (spaces, tabs, line
        /// breaks, Unicode spaces, letters of both cases, digits, CJK, punctuation, marks,
        /// emoji; its look-ahead branch among them): the counts are tiktoken's.
        #[test]
        fn random_texts_count_as_tiktoken_does(
            parts in proptest::collection::vec(proptest::sample::select(vec![
                " ", "  ", "\t", "\n", "\r\n", "\u{a0}", "\u{3000}", "a", "Word", "ABC", "'s",
                "12", "12345", "你好", "。", "，", "!", "?!", "/", "\u{301}", "😀", "ß", "-",
            ]), 0..24)
        ) {
            let text: String = parts.concat();
            let want = reference().encode_ordinary(&text).len();
            proptest::prop_assert_eq!(tk().count_uncached(&text) as usize, want, "{:?}", text);
        }
    }

    #[test]
    fn counting_by_lines_never_undercounts_and_stays_close() {
        let lines = [
            "- 用户：我叫林晓，在杭州做设计师。最近很想换工作。",
            "- 助手：好的，我帮你记下来了。（调用了 write_state）",
            "",
            "  indented line with English words, numbers 2026 and punctuation!",
            "## 早先对话摘要",
            "- 用户：第 12 天：今天完成了晨跑，记一下进展。",
        ];
        for n in 1..=lines.len() {
            for start in 0..lines.len() {
                let text: Vec<&str> = lines.iter().cycle().skip(start).take(n).copied().collect();
                let text = text.join("\n");
                let (whole, by_lines) = (tk().count_uncached(&text), tk().count_lines(&text));
                assert!(by_lines >= whole, "{by_lines} < {whole} for {text:?}");
                assert!(by_lines <= whole + n as u32, "{by_lines} vs {whole} for {text:?}");
            }
        }
    }

    #[test]
    fn truncate_keeps_a_prefix_within_the_budget() {
        let text = "八字命理咨询师会先确认出生信息，再解读命盘。".repeat(10);
        let cut = tk().truncate(&text, 15);
        assert!(text.starts_with(cut));
        assert!(tk().count(cut) <= 15);
        assert!(tk().count(cut) >= 12, "{}", tk().count(cut));
        assert_eq!(tk().truncate("short", 100), "short");
        assert_eq!(tk().truncate("short text", 0), "");
    }

    #[test]
    fn tool_definitions_are_counted_by_content() {
        let def = |params: serde_json::Value| ToolDef {
            name: "pick".into(),
            description: "Pick one of the options.".into(),
            parameters: params.into(),
        };
        let a =
            def(serde_json::json!({"type": "object", "properties": {"x": {"enum": ["a", "b"]}}}));
        let b = def(serde_json::json!({"type": "object", "properties": {"x": {"enum": ["ab"]}}}));
        let json = |d: &ToolDef| serde_json::to_string(d).unwrap();
        assert_eq!(tk().count_tool(&a), tk().count_uncached(&json(&a)) + TOOL_OVERHEAD);
        assert_eq!(tk().count_tool(&a), tk().count_tool(&a.clone()));
        assert_eq!(tk().count_tool(&b), tk().count_uncached(&json(&b)) + TOOL_OVERHEAD);
    }

    #[test]
    fn messages_count_text_calls_and_framing() {
        let user = Message::user("hello world");
        assert_eq!(tk().count_message(&user), 2 + MESSAGE_OVERHEAD);
        let call =
            ToolCall { id: "call_1".into(), name: "read_state".into(), arguments: "{}".into() };
        let assistant = Message::assistant("", vec![call]);
        assert!(tk().count_message(&assistant) > MESSAGE_OVERHEAD + TOOL_OVERHEAD);
    }
}
