//! Lenient YAML: when strict parsing fails, retry once after quoting `key: value` lines whose
//! plain value itself holds `": "` (e.g. `description: Use when: the user asks`), which a person
//! reads as text but YAML rejects. Each repaired line is reported as a warning; anything the
//! retry cannot fix reports the original error. Nothing else is guessed here.

use crate::problem::Pos;
use crate::yaml::{self, Node, SyntaxError};

/// A line that was read leniently: where, and what to write instead.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Repair {
    pub pos: Pos,
    pub key: String,
}

impl Repair {
    pub fn message(&self) -> String {
        format!(
            "the value of `{}` contains \": \" and was read as text; quote it (\"...\") so other YAML readers accept it",
            self.key
        )
    }
}

/// Parse strictly; on a syntax error, retry with unquoted colons repaired.
pub(crate) fn parse_lenient(
    text: &str,
    first_line: usize,
) -> Result<(Node, Vec<Repair>), SyntaxError> {
    match yaml::parse(text, first_line) {
        Ok(node) => Ok((node, Vec::new())),
        Err(original) => {
            let Some((fixed, repairs)) = quote_colon_values(text, first_line) else {
                return Err(original);
            };
            match yaml::parse(&fixed, first_line) {
                Ok(node) => Ok((node, repairs)),
                Err(_) => Err(original),
            }
        }
    }
}

/// Characters that make a value something other than plain text when they start it.
const SPECIAL_START: &[char] = &['"', '\'', '[', '{', '|', '>', '&', '*', '!', '#', '%', '@', '`'];

/// Rewrite `key: plain value with: colon` lines as `key: 'plain value with: colon'`, keeping
/// the number of lines. Returns `None` when no line needs it.
fn quote_colon_values(text: &str, first_line: usize) -> Option<(String, Vec<Repair>)> {
    let mut out = String::with_capacity(text.len() + 16);
    let mut repairs = Vec::new();
    for (i, line) in text.split_inclusive('\n').enumerate() {
        let (body, eol) = split_eol(line);
        match repair_line(body) {
            Some((fixed, key, col)) => {
                repairs.push(Repair { pos: Pos::new(first_line + i, col), key });
                out.push_str(&fixed);
            }
            None => out.push_str(body),
        }
        out.push_str(eol);
    }
    (!repairs.is_empty()).then_some((out, repairs))
}

fn split_eol(line: &str) -> (&str, &str) {
    let trimmed = line.trim_end_matches(['\n', '\r']);
    (trimmed, &line[trimmed.len()..])
}

/// `Some((rewritten line, key, 1-based column of the value))` when the line needs quoting.
fn repair_line(line: &str) -> Option<(String, String, usize)> {
    let indent_len = line.len() - line.trim_start_matches([' ', '\t']).len();
    let (indent, rest) = line.split_at(indent_len);
    if rest.starts_with('-') || rest.starts_with('#') || rest.starts_with(SPECIAL_START) {
        return None;
    }
    let sep = rest.find(": ")?;
    let key = &rest[..sep];
    let value = rest[sep + 2..].trim();
    let key_ok =
        !key.is_empty() && !key.contains(['"', '\'', '[', '{', '#']) && !key.ends_with(' ');
    let value_needs_quotes = value.contains(": ") || value.ends_with(':');
    if !key_ok || value.is_empty() || value.starts_with(SPECIAL_START) || !value_needs_quotes {
        return None;
    }
    if value.contains(" #") {
        return None; // a comment we would swallow: leave it to the author
    }
    let col = indent.chars().count() + key.chars().count() + 3;
    let quoted = format!("{indent}{key}: '{}'", value.replace('\'', "''"));
    Some((quoted, key.to_string(), col))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn unquoted_colon_in_description_is_read_as_text_with_a_warning() {
        let text = "name: x\ndescription: Use when: the user asks about it\n";
        let (node, repairs) = parse_lenient(text, 2).unwrap();
        assert_eq!(
            node.get("description").unwrap().scalar_text(),
            Some("Use when: the user asks about it")
        );
        assert_eq!(repairs, vec![Repair { pos: Pos::new(3, 14), key: "description".into() }]);
    }

    #[test]
    fn apostrophes_survive_the_repair() {
        let (node, _) = parse_lenient("description: it's: fine\n", 1).unwrap();
        assert_eq!(node.get("description").unwrap().scalar_text(), Some("it's: fine"));
    }

    #[test]
    fn valid_yaml_is_untouched_and_real_errors_stay_errors() {
        let (_, repairs) = parse_lenient("a: 'b: c'\n", 1).unwrap();
        assert!(repairs.is_empty());
        let err = parse_lenient("a: [1, 2\nb: c: d\n", 1).unwrap_err();
        assert_eq!(err.pos.line, 2, "{err:?}");
    }

    #[test]
    fn nested_values_and_crlf_are_repaired_too() {
        let (node, repairs) = parse_lenient("personas:\r\n  coach: Coach: direct\r\n", 1).unwrap();
        assert_eq!(
            node.get("personas").unwrap().get("coach").unwrap().scalar_text(),
            Some("Coach: direct")
        );
        assert_eq!(repairs[0].pos, Pos::new(2, 10));
    }
}
