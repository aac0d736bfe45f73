//! Reading input files and lines with a size cap: a profile to import, an eval scenario, a
//! tools file, settings, lines of stdin. Nothing read this way can exhaust memory (`/dev/zero`,
//! a multi-gigabyte file): past the cap the read stops and the error names the file, its size
//! (when the file system knows it) and the cap. What the text means is the caller's business.

use std::io::{BufRead, Read};
use std::path::{Path, PathBuf};

/// The cap for an input file (profile, scenario, tools, settings): far above any real one.
pub const FILE_CAP: u64 = 4 * 1024 * 1024;
/// The cap for one line of stdin (a message to screen, a chat line).
pub const LINE_CAP: usize = 256 * 1024;

#[derive(Debug, thiserror::Error)]
pub enum InputError {
    /// The file holds more than `cap` bytes (`size` is absent for a device or pipe).
    #[error("{what} {} is {}, over the {} limit; use a smaller file", path.display(), size_text(*size, *cap), bytes_text(*cap))]
    TooLarge { what: String, path: PathBuf, size: Option<u64>, cap: u64 },
    #[error("cannot read {what} {}: {err}", path.display())]
    Read { what: String, path: PathBuf, err: std::io::Error },
    #[error("{what} {} is not UTF-8 text (invalid byte at offset {offset})", path.display())]
    NotUtf8 { what: String, path: PathBuf, offset: usize },
    /// A line of `source` longer than `cap` bytes; reading stopped there.
    #[error("line {line} of {source_name} is longer than the {} limit for one line; split it", bytes_text(*cap as u64))]
    LineTooLong { source_name: String, line: usize, cap: usize },
    #[error("cannot read line {line} of {source_name}: {err}")]
    ReadLine { source_name: String, line: usize, err: std::io::Error },
}

fn bytes_text(n: u64) -> String {
    if n >= 1024 * 1024 && n.is_multiple_of(1024 * 1024) {
        format!("{} MiB", n / (1024 * 1024))
    } else if n >= 1024 && n.is_multiple_of(1024) {
        format!("{} KiB", n / 1024)
    } else {
        format!("{n} bytes")
    }
}

fn size_text(size: Option<u64>, cap: u64) -> String {
    match size {
        Some(size) => format!("{size} bytes"),
        None => format!("larger than {cap} bytes"),
    }
}

/// The text of the file at `path` (`what` names it in errors, e.g. "profile file"), refused
/// when longer than `cap` bytes or not UTF-8. Reads at most `cap + 1` bytes.
pub fn read_text(path: &Path, what: &str, cap: u64) -> Result<String, InputError> {
    let read_err = |err| InputError::Read { what: what.to_string(), path: path.to_path_buf(), err };
    let file = std::fs::File::open(path).map_err(read_err)?;
    let known = file.metadata().ok().filter(|m| m.is_file()).map(|m| m.len());
    let too_large =
        |size| InputError::TooLarge { what: what.to_string(), path: path.to_path_buf(), size, cap };
    if let Some(size) = known.filter(|&s| s > cap) {
        return Err(too_large(Some(size)));
    }
    let mut bytes = Vec::new();
    file.take(cap + 1).read_to_end(&mut bytes).map_err(read_err)?;
    if bytes.len() as u64 > cap {
        // Grew while read, or a device / pipe without a size.
        return Err(too_large(known.filter(|&s| s > cap)));
    }
    String::from_utf8(bytes).map_err(|e| InputError::NotUtf8 {
        what: what.to_string(),
        path: path.to_path_buf(),
        offset: e.utf8_error().valid_up_to(),
    })
}

/// Lines of a reader (stdin), each at most `cap` bytes without its line end. A longer line
/// ends the iteration with [`InputError::LineTooLong`]; bytes that are not UTF-8 are replaced.
pub struct CappedLines<R> {
    reader: R,
    source_name: String,
    cap: usize,
    line: usize,
    done: bool,
}

impl<R: BufRead> CappedLines<R> {
    pub fn new(reader: R, source_name: &str, cap: usize) -> Self {
        Self { reader, source_name: source_name.to_string(), cap, line: 0, done: false }
    }
}

impl<R: BufRead> Iterator for CappedLines<R> {
    type Item = Result<String, InputError>;

    fn next(&mut self) -> Option<Self::Item> {
        if self.done {
            return None;
        }
        self.line += 1;
        let mut buf = Vec::new();
        // The line end may follow the cap's last byte: read cap + 2 ("\r\n").
        let limit = self.cap as u64 + 2;
        match (&mut self.reader).take(limit).read_until(b'\n', &mut buf) {
            Ok(0) => {
                self.done = true;
                return None;
            }
            Ok(_) => {}
            Err(err) => {
                self.done = true;
                let source_name = self.source_name.clone();
                return Some(Err(InputError::ReadLine { source_name, line: self.line, err }));
            }
        }
        if buf.last() == Some(&b'\n') {
            buf.pop();
            if buf.last() == Some(&b'\r') {
                buf.pop();
            }
        }
        if buf.len() > self.cap {
            self.done = true;
            let source_name = self.source_name.clone();
            return Some(Err(InputError::LineTooLong {
                source_name,
                line: self.line,
                cap: self.cap,
            }));
        }
        Some(Ok(String::from_utf8_lossy(&buf).into_owned()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_device_without_end_is_refused_at_the_cap() {
        let err = read_text(Path::new("/dev/zero"), "profile file", 1024).unwrap_err();
        let text = err.to_string();
        assert!(text.contains("/dev/zero") && text.contains("1 KiB"), "{text}");
        assert!(matches!(err, InputError::TooLarge { size: None, .. }));
    }

    #[test]
    fn a_big_file_names_its_size_and_a_small_one_reads() {
        let dir = tempfile::tempdir().unwrap();
        let big = dir.path().join("big.json");
        std::fs::File::create(&big).unwrap().set_len(FILE_CAP + 1).unwrap();
        let text = read_text(&big, "scenario", FILE_CAP).unwrap_err().to_string();
        assert!(text.contains(&format!("{} bytes", FILE_CAP + 1)), "{text}");
        assert!(text.contains("big.json") && text.contains("4 MiB"), "{text}");
        let small = dir.path().join("small.json");
        std::fs::write(&small, "{}").unwrap();
        assert_eq!(read_text(&small, "scenario", FILE_CAP).unwrap(), "{}");
        std::fs::write(&small, b"{\xff}").unwrap();
        let text = read_text(&small, "scenario", FILE_CAP).unwrap_err().to_string();
        assert!(text.contains("not UTF-8") && text.contains("offset 1"), "{text}");
    }

    #[test]
    fn lines_are_capped_and_line_ends_dropped() {
        let input: &[u8] = b"one\r\ntwo\nxxxxxxxxxx\nnever";
        let mut lines = CappedLines::new(input, "stdin", 5);
        assert_eq!(lines.next().unwrap().unwrap(), "one");
        assert_eq!(lines.next().unwrap().unwrap(), "two");
        let err = lines.next().unwrap().unwrap_err().to_string();
        assert!(err.contains("line 3 of stdin"), "{err}");
        assert!(lines.next().is_none());
        let exact: &[u8] = b"12345\r\n";
        assert_eq!(CappedLines::new(exact, "stdin", 5).next().unwrap().unwrap(), "12345");
        let zero = std::fs::File::open("/dev/zero").unwrap();
        let mut lines = CappedLines::new(std::io::BufReader::new(zero), "stdin", 1024);
        assert!(matches!(lines.next(), Some(Err(InputError::LineTooLong { .. }))));
    }
}
