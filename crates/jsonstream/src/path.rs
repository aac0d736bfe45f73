//! Concrete paths: where a value sits in the document (`$.steps[1].title`).
//!
//! Owns `Path`, `PathSegment` and their JSONPath rendering. Patterns with
//! wildcards live in `pattern`; tracking the path while parsing lives in the
//! parser's frame stack.

use std::fmt;

/// One step from a container to a child value.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum PathSegment {
    /// An object member, by key.
    Key(String),
    /// An array element, by 0-based index.
    Index(usize),
}

/// The concrete location of a value, from the document root.
///
/// Displays as normalized JSONPath: `$`, `.key` for keys made of letters,
/// digits, `_` and `-` (or non-ASCII), `['any key']` otherwise, `[n]` for
/// indices. The rendering parses back as a pattern matching exactly this path.
#[derive(Debug, Clone, Default, PartialEq, Eq, Hash)]
pub struct Path {
    segments: Vec<PathSegment>,
}

impl Path {
    /// The root path `$`.
    pub fn root() -> Self {
        Self::default()
    }

    /// The segments from the root, outermost first.
    pub fn segments(&self) -> &[PathSegment] {
        &self.segments
    }

    /// Appends one segment (used to build paths step by step).
    pub fn push(&mut self, segment: PathSegment) {
        self.segments.push(segment);
    }
}

impl From<Vec<PathSegment>> for Path {
    fn from(segments: Vec<PathSegment>) -> Self {
        Self { segments }
    }
}

/// Whether `c` may appear in a dot-notation name (`$.name`).
pub(crate) fn is_name_char(c: char) -> bool {
    c.is_ascii_alphanumeric() || c == '_' || c == '-' || !c.is_ascii()
}

impl fmt::Display for Path {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("$")?;
        for segment in &self.segments {
            match segment {
                PathSegment::Index(i) => write!(f, "[{i}]")?,
                PathSegment::Key(k) if !k.is_empty() && k.chars().all(is_name_char) => {
                    write!(f, ".{k}")?
                }
                PathSegment::Key(k) => {
                    f.write_str("['")?;
                    for c in k.chars() {
                        if c == '\'' || c == '\\' {
                            f.write_str("\\")?;
                        }
                        write!(f, "{c}")?;
                    }
                    f.write_str("']")?;
                }
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn renders_keys_indices_and_quoted_keys() {
        let path = Path::from(vec![
            PathSegment::Key("plan_update".into()),
            PathSegment::Key("steps".into()),
            PathSegment::Index(1),
            PathSegment::Key("title".into()),
        ]);
        assert_eq!(path.to_string(), "$.plan_update.steps[1].title");
        let odd =
            Path::from(vec![PathSegment::Key("a.b 'c'".into()), PathSegment::Key(String::new())]);
        assert_eq!(odd.to_string(), r"$['a.b \'c\'']['']");
        assert_eq!(Path::root().to_string(), "$");
    }
}
