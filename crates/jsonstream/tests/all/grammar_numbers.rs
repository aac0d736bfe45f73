//! Numbers: the RFC 8259 grammar, and values identical to serde_json's.

use serde_json::{Value, json};
use vibe_jsonstream::{Error, Mode, Parser, Payload};

use crate::support::{assert_same, parse_bytewise, parse_whole, syntax_message};

#[test]
fn numbers_equal_serde_json_in_value_and_representation() {
    let text = "[0, -0, 1, -1, 0.5, -0.0, 1e2, 1E+2, 1e-2, 12.5e10, 123456789012345678901234567890, \
                -9223372036854775808, -9223372036854775809, 18446744073709551615, 18446744073709551616, \
                1.7976931348623157e308, 5e-324, 2.2250738585072014e-308, 0.1, 3.141592653589793238462643383279, \
                123e-10000000, 1000000000000000000000e-20]";
    let expected: Value = serde_json::from_str(text).unwrap();
    assert_same(&parse_whole(text.as_bytes()).unwrap(), &expected, "whole");
    assert_same(&parse_bytewise(text.as_bytes()).unwrap(), &expected, "bytewise");
}

#[test]
fn rejects_numbers_outside_the_grammar() {
    assert!(syntax_message(b"[01]").contains("leading zeros"));
    assert!(syntax_message(b"[-01]").contains("leading zeros"));
    assert!(syntax_message(b"[-]").contains("expected a digit after '-', found ']'"));
    assert!(syntax_message(b"[1.]").contains("expected a digit after the decimal point"));
    assert!(syntax_message(b"[1.e5]").contains("expected a digit after the decimal point"));
    assert!(syntax_message(b"[1e]").contains("expected a digit in the exponent"));
    assert!(syntax_message(b"[1e+]").contains("expected a digit in the exponent"));
    assert!(syntax_message(b"[.5]").contains("expected a JSON value"));
    assert!(syntax_message(b"[+1]").contains("expected a JSON value"));
    assert!(syntax_message(b"[0x10]").contains("found 'x'"));
    assert!(syntax_message(b"[1a]").contains("found 'a'"));
    assert!(syntax_message(b"[Infinity]").contains("expected a JSON value"));
    assert!(syntax_message(b"[-Infinity]").contains("expected a digit after '-'"));
}

#[test]
fn a_top_level_number_completes_only_at_the_end_of_input() {
    let mut builder = Parser::builder();
    let root = builder.subscribe("$", Mode::Realtime).unwrap();
    let mut p = builder.build();
    p.feed(b"12").unwrap();
    p.feed(b"34").unwrap();
    assert!(!p.is_complete());
    assert_eq!(p.drain_events().count(), 0);
    p.end().unwrap();
    let events: Vec<_> = p.drain_events().collect();
    assert_eq!(events.len(), 1);
    assert_eq!(events[0].subscription, root);
    assert_eq!(events[0].payload, Payload::Value(json!(1234)));
    assert_eq!(p.finish().unwrap(), json!(1234));
    match parse_whole(b"-") {
        Err(Error::Truncated { message, .. }) => assert_eq!(message, "incomplete number"),
        other => panic!("{other:?}"),
    }
}

#[test]
fn out_of_range_numbers_fail_only_where_a_value_is_built() {
    match parse_whole(b"[1, 1e400]") {
        Err(Error::NumberOutOfRange { position, text }) => {
            assert_eq!(text, "1e400");
            assert_eq!(position.offset, 4);
        }
        other => panic!("{other:?}"),
    }
    assert!(serde_json::from_slice::<Value>(b"[1, 1e400]").is_err());
    let mut streaming = Parser::builder().retain_value(false).build();
    streaming.feed(b"[1, 1e400, -1e400]").unwrap();
    streaming.end().unwrap();
}
