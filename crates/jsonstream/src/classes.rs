//! Byte classes and the scanning loops of the hot path.
//!
//! Owns "which bytes end a run of plain string content" (a 256-entry table
//! plus an 8-bytes-at-a-time check) and how a byte is named in messages.
//! Grammar decisions stay in the state machine.

/// `true` for the bytes that end a run of plain string content:
/// `"`, `\` and the control bytes 0x00–0x1F.
static STRING_STOP: [bool; 256] = {
    let mut table = [false; 256];
    let mut b = 0;
    while b < 0x20 {
        table[b] = true;
        b += 1;
    }
    table[b'"' as usize] = true;
    table[b'\\' as usize] = true;
    table
};

const ONES: u64 = 0x0101_0101_0101_0101;
const HIGHS: u64 = 0x8080_8080_8080_8080;

/// Does the little-endian word hold a `"`, a `\` or a byte below 0x20?
/// May report a hit that is not there (then the byte loop decides), never
/// misses one.
#[inline]
fn word_has_stop(w: u64) -> bool {
    let has_zero = |x: u64| x.wrapping_sub(ONES) & !x & HIGHS;
    let quote = has_zero(w ^ (ONES * u64::from(b'"')));
    let backslash = has_zero(w ^ (ONES * u64::from(b'\\')));
    let control = w.wrapping_sub(ONES * 0x20) & !w & HIGHS;
    (quote | backslash | control) != 0
}

/// Returns the index of the first stop byte at or after `i`, or `buf.len()`.
#[inline]
pub(crate) fn scan_plain(buf: &[u8], mut i: usize) -> usize {
    loop {
        while let Some(word) = buf.get(i..).and_then(|rest| rest.first_chunk::<8>()) {
            if word_has_stop(u64::from_le_bytes(*word)) {
                break;
            }
            i += 8;
        }
        let end = (i + 8).min(buf.len());
        while i < end {
            if STRING_STOP[usize::from(buf[i])] {
                return i;
            }
            i += 1;
        }
        if i >= buf.len() {
            return buf.len();
        }
    }
}

/// JSON whitespace: space, tab, line feed, carriage return.
#[inline]
pub(crate) fn is_ws(b: u8) -> bool {
    matches!(b, b' ' | b'\t' | b'\n' | b'\r')
}

/// Names a byte for an error message: `'x'` for printable ASCII, otherwise
/// its hex value.
pub(crate) fn describe(b: u8) -> String {
    match b {
        0x21..=0x7e => format!("'{}'", char::from(b)),
        b' ' => "a space".to_owned(),
        0x80.. => format!("the non-ASCII byte 0x{b:02X}"),
        _ => format!("the control byte 0x{b:02X}"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scan_stops_at_quote_backslash_and_controls_only() {
        let text = "plain text with ünïcödé and more plain text".as_bytes();
        assert_eq!(scan_plain(text, 0), text.len());
        for stop in [b'"', b'\\', 0x00, 0x1f, b'\n'] {
            for at in 0..40 {
                let mut buf = vec![b'a'; 40];
                buf[at] = stop;
                assert_eq!(scan_plain(&buf, 0), at, "stop {stop:#x} at {at}");
                assert_eq!(scan_plain(&buf, at + 1), 40);
            }
        }
        let highs = [0xe2u8, 0x80, 0x9c, 0x7f, 0x20, 0xff, 0xc3, 0xa9, 0x21, b'"'];
        assert_eq!(scan_plain(&highs, 0), 9);
    }

    #[test]
    fn describes_bytes_readably() {
        assert_eq!(describe(b'x'), "'x'");
        assert_eq!(describe(0x0a), "the control byte 0x0A");
        assert_eq!(describe(0xff), "the non-ASCII byte 0xFF");
    }
}
