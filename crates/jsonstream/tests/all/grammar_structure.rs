//! Structure: containers, whitespace, one top-level value, literals, error
//! positions, and the parser's life cycle.

use serde_json::{Value, json};
use vibe_jsonstream::{Error, Parser, Position};

use crate::support::{assert_same, parse_bytewise, parse_whole, syntax_message};

#[test]
fn accepts_every_kind_of_value_with_whitespace_between_tokens() {
    let text = " \t\r\n{ \"a\" : [ 1 , -2.5e3 , true , false , null , \"x\" , { } , [ ] ] ,\n\"b\":{\"c\":{}}}\n ";
    let expected: Value = serde_json::from_str(text).unwrap();
    assert_same(&parse_whole(text.as_bytes()).unwrap(), &expected, "whole");
    assert_same(&parse_bytewise(text.as_bytes()).unwrap(), &expected, "bytewise");
}

#[test]
fn accepts_scalars_at_the_top_level() {
    for text in ["0", "-1.5", "\"hi\"", "true", "false", "null", " 7 ", "[]", "{}"] {
        let expected: Value = serde_json::from_str(text).unwrap();
        assert_same(&parse_whole(text.as_bytes()).unwrap(), &expected, text);
        assert_same(&parse_bytewise(text.as_bytes()).unwrap(), &expected, text);
    }
}

#[test]
fn rejects_trailing_commas_with_a_message_saying_so() {
    assert!(syntax_message(b"[1,]").contains("trailing commas are not allowed"));
    assert!(syntax_message(b"{\"a\":1,}").contains("trailing commas are not allowed"));
    assert!(syntax_message(b"[,1]").contains("expected a JSON value"));
    assert!(syntax_message(b"[1,,2]").contains("expected a JSON value"));
}

#[test]
fn rejects_a_second_value_and_trailing_garbage() {
    for text in ["1 2", "{}{}", "[] x", "\"a\"\"b\"", "null,", "{}}"] {
        let message = syntax_message(text.as_bytes());
        assert!(message.contains("exactly one value"), "{text}: {message}");
    }
}

#[test]
fn rejects_comments_single_quotes_and_non_json_whitespace() {
    for text in [
        "/* c */ 1",
        "[1] // c",
        "['a']",
        "{'a':1}",
        "[1,\u{c}2]",
        "\u{a0}1",
        "\u{feff}{}",
        "[1\u{b}]",
    ] {
        assert!(parse_whole(text.as_bytes()).is_err(), "{text:?}");
        assert!(parse_bytewise(text.as_bytes()).is_err(), "{text:?}");
    }
}

#[test]
fn rejects_malformed_objects() {
    assert!(syntax_message(b"{1:2}").contains("expected a string key or '}'"));
    assert!(syntax_message(b"{\"a\" 1}").contains("expected ':' after the key, found '1'"));
    assert!(
        syntax_message(b"{\"a\":1 \"b\":2}").contains("expected ',' or '}' after an object member")
    );
    assert!(
        syntax_message(b"[1}").contains("expected ',' or ']' after an array element, found '}'")
    );
    assert!(syntax_message(b"{\"a\":1]").contains("expected ',' or '}'"));
    assert!(syntax_message(b"{\"a\":}").contains("expected a value, found '}'"));
    assert!(syntax_message(b"{,}").contains("expected a string key"));
}

#[test]
fn literals_are_exact_and_may_be_split() {
    assert!(syntax_message(b"True").contains("expected a JSON value"));
    assert!(syntax_message(b"[tru]").contains("invalid literal: expected `true`, found ']'"));
    assert!(syntax_message(b"nulll").contains("exactly one value"));
    assert!(syntax_message(b"[nan]").contains("invalid literal: expected `null`"));
    assert_eq!(parse_bytewise(b"[true,false,null]").unwrap(), json!([true, false, null]));
    match parse_whole(b"[fals") {
        Err(Error::Truncated { message, .. }) => {
            assert!(message.contains("incomplete literal"), "{message}")
        }
        other => panic!("{other:?}"),
    }
}

#[test]
fn truncated_input_names_what_is_open() {
    let cases: [(&[u8], &str); 6] = [
        (b"", "no JSON value"),
        (b"  \n ", "no JSON value"),
        (b"{\"a\": [1, {\"b\": 2", "3 container(s) still open (innermost: an object at $.a[1].b)"),
        (b"[\"abc", "unterminated string"),
        (b"{\"ke", "unterminated key string"),
        (b"[1.", "incomplete number"),
    ];
    for (text, expected) in cases {
        match parse_whole(text) {
            Err(Error::Truncated { message, position }) => {
                assert!(message.contains(expected), "{message}");
                assert_eq!(position.offset, text.len() as u64);
            }
            other => panic!("{:?}: {other:?}", String::from_utf8_lossy(text)),
        }
    }
}

#[test]
fn errors_carry_offset_line_and_column() {
    let text = b"{\n  \"a\": 1,\n  \"b\": tru e\n}";
    match parse_whole(text) {
        Err(Error::Syntax { position, message }) => {
            assert_eq!(position, Position { offset: 22, line: 3, column: 11 });
            assert!(message.contains("invalid literal"), "{message}");
        }
        other => panic!("{other:?}"),
    }
    let err = parse_bytewise(text).unwrap_err();
    assert_eq!(
        err.to_string(),
        "invalid JSON at line 3, column 11 (byte 22): invalid literal: expected `true`, found a space"
    );
}

#[test]
fn repeated_keys_keep_the_first_position_and_the_last_value_like_serde_json() {
    let text = br#"{"a":1,"b":2,"a":{"x":[3]},"c":0,"b":null}"#;
    let expected: Value = serde_json::from_slice(text).unwrap();
    assert_same(&parse_whole(text).unwrap(), &expected, "duplicates");
    assert_eq!(expected.to_string(), r#"{"a":{"x":[3]},"b":null,"c":0}"#);
}

#[test]
fn an_error_poisons_the_parser_and_end_is_final() {
    let mut p = Parser::new();
    let first = p.feed(b"[1 x").unwrap_err();
    assert_eq!(p.feed(b"]").unwrap_err(), first);
    assert_eq!(p.end().unwrap_err(), first);

    let mut p = Parser::new();
    p.feed(b"[1]").unwrap();
    assert!(p.is_complete());
    p.end().unwrap();
    p.end().unwrap();
    assert_eq!(p.feed(b" ").unwrap_err(), Error::AfterEnd);
    assert_eq!(p.finish().unwrap(), json!([1]));
}

#[test]
fn finish_without_a_retained_value_says_how_to_fix_it() {
    let mut p = Parser::builder().retain_value(false).build();
    p.feed(b"{\"a\": [1, 2, 3]}").unwrap();
    assert!(p.is_complete());
    let err = p.finish().unwrap_err();
    assert_eq!(err, Error::ValueNotRetained);
    assert!(err.to_string().contains("retain_value(true)"));
}

#[test]
fn tracks_the_current_path_and_byte_count() {
    let mut p = Parser::new();
    p.feed(br#"{"plan": {"steps": [{"title": "a"}, {"ti"#).unwrap();
    assert_eq!(p.current_path().to_string(), "$.plan.steps[1]");
    p.feed(br#"tle": "b"#).unwrap();
    assert_eq!(p.current_path().to_string(), "$.plan.steps[1].title");
    assert_eq!(p.bytes_consumed(), 48);
    assert!(!p.is_complete());
}
