//! Markdown files with YAML frontmatter: finding the `---` fences, the YAML text with the file
//! line it starts on, and the body. Reading only the frontmatter of a file (for the index) is
//! here too. What the YAML means is decided by the callers (`meta`, `parts`).

use std::io::{BufRead, BufReader, Read};
use std::path::Path;

use crate::error::SkillsError;
use crate::fsio::{self, Reads};
use crate::problem::Pos;

/// Largest frontmatter read for the index; a longer one is an error, not a slow start.
pub(crate) const MAX_FRONTMATTER_BYTES: u64 = 64 * 1024;

/// A Markdown file split at its frontmatter fences.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Split<'a> {
    pub yaml: &'a str,
    /// File line of the first YAML line (the line after the opening fence).
    pub yaml_line: usize,
    pub body: &'a str,
    /// File line of the first body line.
    pub body_line: usize,
}

/// A fence problem: where and what.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct FenceError {
    pub pos: Pos,
    pub message: String,
}

fn is_open_fence(line: &str) -> bool {
    line.trim_end() == "---"
}

fn is_close_fence(line: &str) -> bool {
    matches!(line.trim_end(), "---" | "...")
}

/// Split a file that must open with frontmatter.
pub(crate) fn split(text: &str) -> Result<Split<'_>, FenceError> {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let mut lines = text.split_inclusive('\n');
    let first = lines.next().unwrap_or("");
    if !is_open_fence(first) {
        return Err(FenceError {
            pos: Pos::START,
            message: "the file must start with a `---` line opening its YAML frontmatter (name, description, ...)".into(),
        });
    }
    let yaml_start = first.len();
    let mut offset = yaml_start;
    for (i, line) in lines.enumerate() {
        if is_close_fence(line) {
            let body_start = offset + line.len();
            return Ok(Split {
                yaml: &text[yaml_start..offset],
                yaml_line: 2,
                body: &text[body_start..],
                body_line: i + 3,
            });
        }
        offset += line.len();
    }
    Err(FenceError {
        pos: Pos::START,
        message: "the frontmatter opened on line 1 is never closed: add a `---` line after it"
            .into(),
    })
}

/// Read a file up to and including its closing frontmatter fence (not the body).
/// Counts as one file read. Returns the text read so far; [`split`] then finds the parts.
pub(crate) fn read_head(path: &Path, reads: &Reads) -> Result<String, SkillsError> {
    let file = fsio::open(path, reads)?;
    let mut reader = BufReader::new(file.take(MAX_FRONTMATTER_BYTES + 1));
    let mut head = String::new();
    let mut line = String::new();
    let mut n = 0usize;
    loop {
        line.clear();
        let read = reader.read_line(&mut line).map_err(|e| SkillsError::io(path, e))?;
        if read == 0 {
            break;
        }
        head.push_str(&line);
        n += 1;
        let fence = if n == 1 {
            is_open_fence(line.trim_start_matches('\u{feff}'))
        } else {
            is_close_fence(&line)
        };
        if (n == 1 && !fence) || (n > 1 && fence) {
            break;
        }
    }
    if head.len() as u64 > MAX_FRONTMATTER_BYTES {
        return Err(SkillsError::TooLarge {
            path: path.to_path_buf(),
            limit: MAX_FRONTMATTER_BYTES,
        });
    }
    Ok(head)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn splits_yaml_and_body_with_file_lines() {
        let s = split("---\nname: a\ndescription: b\n---\n# Title\nbody\n").unwrap();
        assert_eq!(s.yaml, "name: a\ndescription: b\n");
        assert_eq!((s.yaml_line, s.body_line), (2, 5));
        assert_eq!(s.body, "# Title\nbody\n");
    }

    #[test]
    fn crlf_bom_and_dots_fence_are_accepted() {
        let s = split("\u{feff}---\r\nname: a\r\n...\r\nbody").unwrap();
        assert_eq!(s.yaml, "name: a\r\n");
        assert_eq!(s.body, "body");
    }

    #[test]
    fn missing_fences_are_explained() {
        assert!(
            split("# no frontmatter\n").unwrap_err().message.contains("must start with a `---`")
        );
        assert!(split("---\nname: a\n").unwrap_err().message.contains("never closed"));
    }

    #[test]
    fn read_head_stops_at_the_closing_fence() {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("SKILL.md");
        std::fs::write(&p, "---\nname: a\n---\nBODY MUST NOT BE READ\n").unwrap();
        let reads = Reads::default();
        assert_eq!(read_head(&p, &reads).unwrap(), "---\nname: a\n---\n");
        assert_eq!(reads.count(), 1);
    }
}
