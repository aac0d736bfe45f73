//! Strings: escapes, surrogate pairs, control characters and UTF-8, also
//! when split between chunks.

use serde_json::{Value, json};
use vibe_jsonstream::{Error, Parser};

use crate::support::{assert_same, parse_bytewise, parse_whole, syntax_message};

#[test]
fn decodes_every_escape() {
    let text = br#"["\" \\ \/ \b \f \n \r \t \u0041 \u00e9 \u20AC \uD83D\uDE00 \u0000"]"#;
    let expected: Value = serde_json::from_slice(text).unwrap();
    assert_eq!(expected, json!(["\" \\ / \u{8} \u{c} \n \r \t A é € 😀 \u{0}"]));
    assert_same(&parse_whole(text).unwrap(), &expected, "whole");
    assert_same(&parse_bytewise(text).unwrap(), &expected, "bytewise");
}

#[test]
fn keys_are_decoded_too() {
    let text = br#"{"a\nb": 1, "\u00e9t\u00e9": 2, "": 3}"#;
    assert_same(&parse_bytewise(text).unwrap(), &serde_json::from_slice(text).unwrap(), "keys");
}

#[test]
fn rejects_invalid_escapes() {
    assert!(syntax_message(br#"["\x"]"#).contains("invalid escape: backslash followed by 'x'"));
    assert!(syntax_message(br#"["\'"]"#).contains("invalid escape"));
    assert!(syntax_message(br#"["\u12G4"]"#).contains("expected 4 hex digits, found 'G'"));
    assert!(syntax_message(br#"["\u12"]"#).contains("expected 4 hex digits, found '\"'"));
    assert!(syntax_message(b"[\"\\\x01\"]").contains("invalid escape"));
}

#[test]
fn rejects_lone_and_mismatched_surrogates() {
    assert!(syntax_message(br#"["\uDE00"]"#).contains("lone low surrogate \\uDE00"));
    assert!(syntax_message(br#"["\uD83Dx"]"#).contains("high surrogate \\uD83D must be followed"));
    assert!(syntax_message(br#"["\uD83D\n"]"#).contains("high surrogate"));
    assert!(syntax_message(br#"["\uD83D\u0041"]"#).contains("found \\u0041"));
    assert!(syntax_message(br#"["\uD83D\uD83D"]"#).contains("high surrogate"));
}

#[test]
fn rejects_raw_control_characters_but_allows_delete() {
    let message = syntax_message(b"[\"a\tb\"]");
    assert!(message.contains("control byte 0x09 inside a string"), "{message}");
    assert!(syntax_message(b"\"a\nb\"").contains("must be escaped"));
    assert!(syntax_message(b"\"\x00\"").contains("control byte 0x00"));
    assert_eq!(parse_whole(b"\"\x7f\"").unwrap(), json!("\u{7f}"));
}

#[test]
fn rejects_invalid_utf8_at_its_offset() {
    let cases: [&[u8]; 7] = [
        b"\"\xff\"",
        b"\"\xc0\xaf\"",
        b"\"\xed\xa0\x80\"",
        b"\"ab\x80\"",
        b"\"\xe2\x82\"",
        b"\"\xf4\x90\x80\x80\"",
        b"\"\xe2\x82x\"",
    ];
    for text in cases {
        let bad_at = text.iter().position(|&b| b >= 0x80).unwrap() as u64;
        for result in [parse_whole(text), parse_bytewise(text)] {
            match result {
                Err(Error::Syntax { position, message }) => {
                    assert!(message.contains("invalid UTF-8"), "{message}");
                    assert!(position.offset >= bad_at, "{text:?}: {position:?}");
                }
                other => panic!("{text:?}: {other:?}"),
            }
        }
        assert!(serde_json::from_slice::<Value>(text).is_err());
    }
}

#[test]
fn multibyte_characters_survive_every_split_point() {
    let text = "{\"ключ\": \"é€😀 mixed ascii ✨ and 中文\", \"k\": [\"\u{10ffff}\"]}";
    let bytes = text.as_bytes();
    let expected: Value = serde_json::from_str(text).unwrap();
    for cut in 0..=bytes.len() {
        for cut2 in [cut, (cut + 1).min(bytes.len()), (cut + 2).min(bytes.len())] {
            let mut p = Parser::new();
            p.feed(&bytes[..cut]).unwrap();
            p.feed(&bytes[cut..cut2]).unwrap();
            p.feed(&bytes[cut2..]).unwrap();
            assert_same(&p.finish().unwrap(), &expected, &format!("cut at {cut}/{cut2}"));
        }
    }
}

#[test]
fn long_strings_with_escapes_round_trip() {
    let long: String =
        (0..5000).map(|i| char::from_u32(0x20 + (i * 7919) % 0x3000).unwrap_or('x')).collect();
    let value = json!({ "text": long, "again": [long.clone(), "\u{1}\u{1f}\"\\"] });
    let text = serde_json::to_vec(&value).unwrap();
    assert_same(&parse_whole(&text).unwrap(), &value, "whole");
    assert_same(&parse_bytewise(&text).unwrap(), &value, "bytewise");
}
