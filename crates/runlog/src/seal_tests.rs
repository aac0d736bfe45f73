//! Tests of the sealed run-file format: round trip, no clear text in the bytes, a cut last
//! record, a damaged record, the wrong key, and telling clear from sealed. These are of v1
//! files (written before chaining, still read); the chain's own are in `chain_tests.rs`.

use super::*;

fn key(byte: u8) -> Arc<RunKey> {
    Arc::new(RunKey::new(&[byte; 32]))
}

fn sealed_file(key: &Arc<RunKey>, records: &[&str]) -> Vec<u8> {
    let mut sealer = Sealer::unchained(key.clone(), "r1", "events.jsonl").unwrap();
    let mut out = sealer.header().into_bytes();
    for r in records {
        out.extend_from_slice(&sealer.seal(r.as_bytes()));
    }
    out
}

#[test]
fn records_open_back_to_their_lines_and_the_bytes_hold_no_clear_text() {
    let k = key(1);
    let bytes = sealed_file(&k, &["{\"text\":\"我害怕失业\"}\n", "{\"a\":1}\n{\"b\":2}\n"]);
    assert_eq!(form(&bytes), Form::Sealed { key_id: k.id(), chained: false });
    let needle = "我害怕失业".as_bytes();
    assert!(!bytes.windows(needle.len()).any(|w| w == needle));
    let opened = open(&bytes, Some(&k), "r1", "events.jsonl").unwrap();
    assert_eq!(
        String::from_utf8(opened.text).unwrap(),
        "{\"text\":\"我害怕失业\"}\n{\"a\":1}\n{\"b\":2}\n"
    );
    assert!(opened.damaged.is_empty() && !opened.cut_last);
}

#[test]
fn a_record_cut_short_at_the_end_is_dropped_and_one_damaged_inside_is_named() {
    let k = key(1);
    let mut bytes = sealed_file(&k, &["{\"a\":1}\n", "{\"b\":2}\n"]);
    let whole = bytes.len();
    bytes.extend_from_slice(&sealed_file(&k, &["{\"c\":3}\n"])[HEADER_LEN..]);
    bytes.truncate(whole + 20);
    let opened = open(&bytes, Some(&k), "r1", "events.jsonl").unwrap();
    assert_eq!(opened.text, b"{\"a\":1}\n{\"b\":2}\n");
    assert!(opened.cut_last && opened.damaged.is_empty());

    // Line 2 (the first record) flipped: named, the rest still read.
    let mut bytes = sealed_file(&k, &["{\"a\":1}\n", "{\"b\":2}\n"]);
    bytes[HEADER_LEN + 40] ^= 1;
    let opened = open(&bytes, Some(&k), "r1", "events.jsonl").unwrap();
    assert_eq!(opened.text, b"{\"b\":2}\n");
    assert_eq!(opened.damaged, [2]);
}

#[test]
fn another_key_or_no_key_is_refused_and_another_file_s_records_do_not_open() {
    let bytes = sealed_file(&key(1), &["{\"a\":1}\n"]);
    let err = open(&bytes, Some(&key(2)), "r1", "events.jsonl").unwrap_err();
    assert!(matches!(err, Refused::OtherKey { .. }), "{err}");
    assert!(err.to_string().contains("another key"), "{err}");
    let err = open(&bytes, None, "r1", "events.jsonl").unwrap_err();
    assert!(matches!(err, Refused::NoKey { .. }));
    // The same records under another run id: every one fails.
    let opened = open(&bytes, Some(&key(1)), "r2", "events.jsonl").unwrap();
    assert!(opened.text.is_empty());
    assert_eq!(opened.damaged, [2]);
}

#[test]
fn clear_files_and_cut_headers_are_told_apart() {
    assert_eq!(form(b""), Form::Empty);
    assert_eq!(form(b"#vibelife-se"), Form::Empty, "a header cut by a kill");
    assert_eq!(form(b"{\"type\":\"run_started\"}\n"), Form::Clear);
    assert_eq!(form(b"{"), Form::Clear);
    let clear = b"{\"a\":1}\n";
    let opened = open(clear, None, "r1", "events.jsonl").unwrap();
    assert_eq!(opened.text, clear);
    assert!(format!("{:?}", key(1)).contains("***"));
}

#[test]
fn a_whole_file_sealed_at_once_keeps_a_cut_last_line_last() {
    let k = key(3);
    let mut sealer = Sealer::unchained(k.clone(), "r1", "events.jsonl").unwrap();
    let mut bytes = seal_whole(&mut sealer, b"{\"a\":1}\n{\"b\":");
    bytes.extend_from_slice(&sealer.seal(b"{\"c\":3}\n"));
    let opened = open(&bytes, Some(&k), "r1", "events.jsonl").unwrap();
    assert_eq!(opened.text, b"{\"a\":1}\n{\"b\":\n{\"c\":3}\n");
}
