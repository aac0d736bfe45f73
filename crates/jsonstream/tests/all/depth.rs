//! Nesting: the default limit equals serde_json's, and the parser itself
//! never recurses (100,000 levels parse on a test thread's small stack).

use serde_json::Value;
use vibe_jsonstream::{DEFAULT_MAX_DEPTH, Error, Parser};

use crate::support::parse_whole;

fn nested(depth: usize) -> Vec<u8> {
    let mut text = "[".repeat(depth);
    text.push_str(&"]".repeat(depth));
    text.into_bytes()
}

#[test]
fn the_default_limit_admits_exactly_what_serde_json_admits() {
    for depth in [DEFAULT_MAX_DEPTH - 1, DEFAULT_MAX_DEPTH, DEFAULT_MAX_DEPTH + 1, 500] {
        let text = nested(depth);
        let theirs = serde_json::from_slice::<Value>(&text);
        let ours = parse_whole(&text);
        assert_eq!(ours.is_ok(), theirs.is_ok(), "depth {depth}");
        if let Err(e) = ours {
            assert_eq!(
                e,
                Error::TooDeep {
                    position: vibe_jsonstream::Position { offset: 127, line: 1, column: 128 },
                    limit: 127
                }
            );
            assert!(e.to_string().contains("ParserBuilder::max_depth"));
        }
    }
}

#[test]
fn a_custom_limit_applies_to_objects_and_arrays() {
    let mut p = Parser::builder().max_depth(2).build();
    p.feed(br#"{"a": [1]}"#).unwrap();
    p.end().unwrap();
    let mut p = Parser::builder().max_depth(2).build();
    let err = p.feed(br#"{"a": [{}]}"#).unwrap_err();
    assert!(matches!(err, Error::TooDeep { limit: 2, .. }), "{err:?}");
}

#[test]
fn a_hundred_thousand_levels_stream_without_recursion() {
    let text = nested(100_000);
    let mut p = Parser::builder().max_depth(usize::MAX).retain_value(false).build();
    for chunk in text.chunks(4093) {
        p.feed(chunk).unwrap();
    }
    p.end().unwrap();

    let mut p = Parser::builder().max_depth(usize::MAX).retain_value(false).build();
    p.feed(&text[..150_000]).unwrap();
    match p.end() {
        Err(Error::Truncated { message, .. }) => {
            assert!(message.starts_with("50000 container(s) still open"), "{message}")
        }
        other => panic!("{other:?}"),
    }
}

#[test]
fn a_hundred_thousand_levels_build_a_value_without_recursion() {
    let text = nested(100_000);
    let mut p = Parser::builder().max_depth(usize::MAX).build();
    p.feed(&text).unwrap();
    let mut value = p.finish().unwrap();
    // serde_json drops values recursively: take it apart level by level.
    let mut levels = 0;
    while let Value::Array(mut items) = value {
        levels += 1;
        value = items.pop().unwrap_or(Value::Null);
    }
    assert_eq!(levels, 100_000);
}

#[test]
fn the_default_limit_stops_a_deep_document_early() {
    let mut p = Parser::new();
    let err = p.feed(&nested(100_000)).unwrap_err();
    assert!(matches!(err, Error::TooDeep { limit: DEFAULT_MAX_DEPTH, .. }));
}
