//! Property: any document, split at any byte boundaries, gives the same
//! value as serde_json and the same events (up to chunk-dependent
//! coalescing) as when fed in one chunk.

use proptest::prelude::*;
use proptest::sample::Index;
use serde_json::{Map, Value};
use vibe_jsonstream::{Mode, Parser};

use crate::support::{assert_same, normalize, run_chunks};

fn key() -> impl Strategy<Value = String> {
    prop_oneof!["[a-z]{0,6}", "\\PC{0,8}", ".{0,4}"]
}

fn leaf() -> impl Strategy<Value = Value> {
    prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::Bool),
        any::<i64>().prop_map(Value::from),
        any::<u64>().prop_map(Value::from),
        any::<f64>().prop_filter("finite", |f| f.is_finite()).prop_map(Value::from),
        "\\PC{0,40}".prop_map(Value::String),
        ".{0,12}".prop_map(Value::String),
        "[ -~]{0,300}".prop_map(Value::String),
    ]
}

fn document() -> impl Strategy<Value = Value> {
    leaf().prop_recursive(5, 80, 8, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..8).prop_map(Value::Array),
            prop::collection::vec((key(), inner), 0..8)
                .prop_map(|members| Value::Object(members.into_iter().collect::<Map<_, _>>())),
        ]
    })
}

/// Serializes with every non-ASCII character (and `/`) as `\u` escapes, so
/// surrogate pairs and escapes get split too.
fn ascii_escaped(value: &Value, out: &mut String) {
    fn string(s: &str, out: &mut String) {
        out.push('"');
        for c in s.chars() {
            match c {
                '"' => out.push_str("\\\""),
                '\\' => out.push_str("\\\\"),
                '/' => out.push_str("\\/"),
                ' '..='~' => out.push(c),
                _ => {
                    let mut units = [0u16; 2];
                    for unit in c.encode_utf16(&mut units) {
                        out.push_str(&format!("\\u{unit:04x}"));
                    }
                }
            }
        }
        out.push('"');
    }
    match value {
        Value::String(s) => string(s, out),
        Value::Array(items) => {
            out.push('[');
            for (i, item) in items.iter().enumerate() {
                if i > 0 {
                    out.push_str(" ,\r\n\t");
                }
                ascii_escaped(item, out);
            }
            out.push(']');
        }
        Value::Object(map) => {
            out.push('{');
            for (i, (k, v)) in map.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                string(k, out);
                out.push_str(" : ");
                ascii_escaped(v, out);
            }
            out.push('}');
        }
        other => out.push_str(&other.to_string()),
    }
}

fn parser(retain: bool) -> Parser {
    let mut b = Parser::builder().retain_value(retain);
    for (pattern, mode) in [
        ("$", Mode::Realtime),
        ("$.*", Mode::Delta),
        ("$.*.*", Mode::Realtime),
        ("$[*].*", Mode::Delta),
        ("$[0]", Mode::Realtime),
        ("$.*[1]", Mode::Delta),
    ] {
        b.subscribe(pattern, mode).unwrap();
    }
    b.build()
}

fn split<'a>(bytes: &'a [u8], cuts: &[Index]) -> Vec<&'a [u8]> {
    let mut at: Vec<usize> = cuts.iter().map(|c| c.index(bytes.len() + 1)).collect();
    at.push(0);
    at.push(bytes.len());
    at.sort_unstable();
    at.windows(2).map(|w| &bytes[w[0]..w[1]]).collect()
}

fn check(bytes: &[u8], cuts: &[Index]) {
    let expected: Value = serde_json::from_slice(bytes).unwrap();
    let (whole_events, whole_value) = run_chunks(parser(true), &[bytes]);
    assert_same(&whole_value.unwrap(), &expected, "whole");
    let whole = normalize(whole_events);

    let chunks = split(bytes, cuts);
    let (split_events, split_value) = run_chunks(parser(true), &chunks);
    assert_same(&split_value.unwrap(), &expected, "split");
    assert_eq!(normalize(split_events), whole, "events differ for chunks {chunks:?}");

    let (streaming_events, _) = run_chunks(parser(false), &chunks);
    assert_eq!(normalize(streaming_events), whole, "retain_value(false) changed the events");
}

proptest! {
    #![proptest_config(ProptestConfig { failure_persistence: None, ..ProptestConfig::default() })]

    #[test]
    fn any_split_gives_the_same_value_and_events(
        doc in document(),
        cuts in prop::collection::vec(any::<Index>(), 0..12),
    ) {
        check(&serde_json::to_vec(&doc).unwrap(), &cuts);
        check(&serde_json::to_vec_pretty(&doc).unwrap(), &cuts);
        let mut escaped = String::new();
        ascii_escaped(&doc, &mut escaped);
        check(escaped.as_bytes(), &cuts);
    }

    #[test]
    fn byte_by_byte_equals_one_chunk(doc in document()) {
        let bytes = serde_json::to_vec_pretty(&doc).unwrap();
        let cuts: Vec<&[u8]> = bytes.chunks(1).collect();
        let (events, value) = run_chunks(parser(true), &cuts);
        let (whole_events, _) = run_chunks(parser(true), &[&bytes]);
        let expected: Value = serde_json::from_slice(&bytes).unwrap();
        assert_same(&value.unwrap(), &expected, "bytewise");
        prop_assert_eq!(normalize(events), normalize(whole_events));
    }
}
