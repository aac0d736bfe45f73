//! Tests of the chained records (v2): a whole file reads closed with its count; a dropped,
//! swapped, flipped, spliced or foreign record is named at its line; a file cut inside a
//! record or at a record's end is open (no closing record); a reopened file continues its
//! chain.

use std::sync::Arc;

use super::*;
use crate::seal::{self, HEADER_LEN, Sealer};

const LINES: [&str; 3] = ["{\"a\":1}\n", "{\"b\":2}\n{\"c\":3}\n", "{\"d\":4}\n"];

fn key() -> Arc<RunKey> {
    Arc::new(RunKey::new(&[7; 32]))
}

/// A chained file of `LINES` (one record each), closed; and its lines (the header first).
fn file(key: &Arc<RunKey>) -> Vec<Vec<u8>> {
    let mut sealer = Sealer::new(key.clone(), "r1", "events.jsonl").unwrap();
    let mut lines = vec![sealer.header().into_bytes()];
    for text in LINES {
        lines.push(sealer.seal(text.as_bytes()));
    }
    lines.push(sealer.close().unwrap());
    lines
}

fn walked(lines: &[Vec<u8>]) -> Walk {
    let bytes = lines.concat();
    assert!(matches!(seal::form(&bytes), seal::Form::Sealed { chained: true, .. }));
    walk(&key(), &context("r1", "events.jsonl"), &bytes[HEADER_LEN..])
}

fn broken(walk: &Walk) -> (usize, Break) {
    match &walk.end {
        End::Broken { line, problem, .. } => (*line, problem.clone()),
        other => panic!("not broken: {other:?}"),
    }
}

#[test]
fn a_whole_file_reads_closed_with_its_count() {
    let walk = walked(&file(&key()));
    assert_eq!(walk.end, End::Closed { records: 3 });
    assert_eq!(walk.text, LINES.concat().as_bytes());
}

#[test]
fn a_dropped_record_is_named_at_the_line_where_the_gap_shows() {
    let mut lines = file(&key());
    lines.remove(2);
    let walk = walked(&lines);
    assert_eq!(broken(&walk), (3, Break::Missing { expected: 1, found: 2 }));
    assert_eq!(walk.text, LINES[0].as_bytes(), "the records before the damage are read");
    assert!(matches!(walk.end, End::Broken { lines_after: 1, .. }));
}

#[test]
fn swapped_records_are_out_of_order() {
    let mut lines = file(&key());
    lines.swap(2, 3);
    let walk = walked(&lines);
    assert_eq!(broken(&walk), (3, Break::OutOfOrder { expected: 1, found: 2 }));
    assert_eq!(walk.text, LINES[0].as_bytes());
}

#[test]
fn a_flipped_byte_fails_its_record() {
    for at in [0, 10, 40, 70] {
        let mut lines = file(&key());
        lines[2][at] = if lines[2][at] == b'A' { b'B' } else { b'A' };
        let walk = walked(&lines);
        assert_eq!(broken(&walk), (3, Break::Unreadable), "byte {at}");
    }
    // The closing record flipped: damaged, not merely unclosed.
    let mut lines = file(&key());
    lines[4][5] ^= 0x01;
    assert_eq!(broken(&walked(&lines)).0, 5);
}

#[test]
fn a_file_cut_inside_a_record_or_at_its_end_has_no_closing_record() {
    let lines = file(&key());
    let mut cut = lines[..3].concat();
    cut.extend_from_slice(&lines[3][..20]);
    let bytes = [cut.as_slice()].concat();
    let walk = walk(&key(), &context("r1", "events.jsonl"), &bytes[HEADER_LEN..]);
    assert_eq!(walk.end, End::Open { records: 2, cut_line: Some(4) });
    assert_eq!(walk.text, [LINES[0], LINES[1]].concat().as_bytes());

    let walk = walked(&lines[..4]);
    assert_eq!(walk.end, End::Open { records: 3, cut_line: None });
    assert_eq!(walk.text, LINES.concat().as_bytes());
}

#[test]
fn a_record_from_another_copy_or_another_run_does_not_fit() {
    // The same run written twice (two sealers): a record of one in the other's place.
    let (a, b) = (file(&key()), file(&key()));
    let mut spliced = a.clone();
    spliced[2] = b[2].clone();
    assert_eq!(broken(&walked(&spliced)), (3, Break::Spliced));

    let mut other = Sealer::new(key(), "r2", "events.jsonl").unwrap();
    let mut foreign = a.clone();
    foreign[1] = other.seal(LINES[0].as_bytes());
    assert_eq!(broken(&walked(&foreign)), (2, Break::Unreadable));
}

#[test]
fn a_closing_record_must_count_the_records_before_it() {
    let k = key();
    let ctx = context("r1", "events.jsonl");
    let mut lines = file(&k)[..4].to_vec();
    let mut link = Link::START;
    for line in &lines[1..] {
        let raw = B64.decode(&line[..line.len() - 1]).unwrap();
        link = Link { seq: link.seq + 1, prev: raw[raw.len() - TAG_LEN..].try_into().unwrap() };
    }
    let (end, _) = seal(&k, &ctx, KIND_END, link, &[9; NONCE_LEN], &end_text(2));
    lines.push(end);
    assert_eq!(broken(&walked(&lines)), (5, Break::BadEnd));
}

#[test]
fn a_reopened_file_continues_its_chain_after_the_closing_record() {
    let k = key();
    let mut lines = file(&k);
    let resume = walked(&lines).resume;
    assert_eq!(resume.seq, 4);
    let mut sealer = Sealer::resume(k.clone(), "r1", "events.jsonl", resume).unwrap();
    lines.push(sealer.seal(b"{\"e\":5}\n"));
    assert_eq!(walked(&lines).end, End::Open { records: 5, cut_line: None });
    lines.push(sealer.close().unwrap());
    let walk = walked(&lines);
    assert_eq!(walk.end, End::Closed { records: 5 });
    assert!(walk.text.ends_with(b"{\"d\":4}\n{\"e\":5}\n"));
}
