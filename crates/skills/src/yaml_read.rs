//! Typed reading of YAML fields with findings collected as [`Problem`]s. The leniency policy
//! lives here in one place: any scalar is accepted where text is expected (numbers as written),
//! a single item where a list is expected, and `"true"`/`"false"` in quotes as booleans; a
//! wrong shape (a list where text belongs, `yes` for a boolean) is an error at the value.

use std::path::Path;

use crate::problem::{Pos, Problem, ProblemCode};
use crate::yaml::{Key, Node, ScalarKind, Value};
use crate::yaml_repair::parse_lenient;

/// Collects problems for one file while fields are read.
pub(crate) struct Reader<'a> {
    pub path: &'a Path,
    pub problems: Vec<Problem>,
}

impl<'a> Reader<'a> {
    pub fn new(path: &'a Path) -> Self {
        Self { path, problems: Vec::new() }
    }

    pub fn error(&mut self, pos: Pos, message: impl Into<String>) {
        self.problems.push(Problem::error(self.path, pos, message));
    }

    pub fn warn(&mut self, pos: Pos, message: impl Into<String>) {
        self.problems.push(Problem::warning(self.path, pos, message));
    }

    /// An error of a known kind.
    pub fn error_of(&mut self, pos: Pos, code: ProblemCode, message: impl Into<String>) {
        self.problems.push(Problem::error(self.path, pos, message).with_code(code));
    }

    /// `text` (its first line is the file's line `first_line`) read leniently: each repair
    /// made to it is a warning; YAML that cannot be read is an error (`invalid YAML{in_what}:
    /// …`) and gives `None`.
    pub fn document(&mut self, text: &str, first_line: usize, in_what: &str) -> Option<Node> {
        match parse_lenient(text, first_line) {
            Ok((node, repairs)) => {
                for rep in repairs {
                    self.warn(rep.pos, rep.message());
                }
                Some(node)
            }
            Err(e) => {
                let code = ProblemCode::InvalidYaml { detail: e.message.clone() };
                self.error_of(e.pos, code, format!("invalid YAML{in_what}: {}", e.message));
                None
            }
        }
    }

    /// A field holding the wrong kind of value.
    fn wrong(&mut self, pos: Pos, field: &str, expected: &str, found: &str, message: String) {
        let code = ProblemCode::WrongType {
            field: field.to_string(),
            expected: expected.to_string(),
            found: found.to_string(),
        };
        self.error_of(pos, code, message);
    }

    /// The text of a scalar. Null (an empty value) and collections are errors.
    pub fn text(&mut self, node: &Node, field: &str) -> Option<String> {
        match node.scalar_text() {
            Some(t) => Some(t.to_string()),
            None => {
                let found = node.kind_name();
                self.wrong(
                    node.pos,
                    field,
                    "text",
                    found,
                    format!("`{field}` must be text, found {found}"),
                );
                None
            }
        }
    }

    /// Like [`Self::text`] but an empty value means "not given".
    pub fn optional_text(&mut self, node: &Node, field: &str) -> Option<String> {
        if node.is_null() { None } else { self.text(node, field) }
    }

    pub fn bool(&mut self, node: &Node, field: &str) -> Option<bool> {
        match &node.value {
            Value::Scalar(s) => match (s.kind, s.text.as_str()) {
                (ScalarKind::Bool(b), _) => Some(b),
                (ScalarKind::Str, "true") => Some(true),
                (ScalarKind::Str, "false") => Some(false),
                _ => {
                    let message = format!("`{field}` must be true or false, found `{}`", s.text);
                    self.wrong(node.pos, field, "boolean", &s.text, message);
                    None
                }
            },
            _ => {
                let found = node.kind_name();
                let message = format!("`{field}` must be true or false, found {found}");
                self.wrong(node.pos, field, "boolean", found, message);
                None
            }
        }
    }

    /// A positive whole number.
    pub fn positive_int(&mut self, node: &Node, field: &str) -> Option<u32> {
        if let Value::Scalar(s) = &node.value
            && let ScalarKind::Int(i) = s.kind
            && let Ok(n) = u32::try_from(i)
            && n > 0
        {
            return Some(n);
        }
        let found =
            node.scalar_text().map_or_else(|| node.kind_name().to_string(), |t| format!("`{t}`"));
        let message = format!("`{field}` must be a positive whole number, found {found}");
        self.wrong(node.pos, field, "positive_number", &found, message);
        None
    }

    /// A list of texts, each with its position. A single text is a one-item list; an empty
    /// value is an empty list.
    pub fn text_list(&mut self, node: &Node, field: &str) -> Vec<(String, Pos)> {
        match &node.value {
            Value::Seq(items) => items
                .iter()
                .filter_map(|item| match item.scalar_text() {
                    Some(t) => Some((t.to_string(), item.pos)),
                    None => {
                        let found = item.kind_name();
                        let message = format!("items of `{field}` must be text, found {found}");
                        self.wrong(item.pos, field, "text", found, message);
                        None
                    }
                })
                .collect(),
            Value::Scalar(_) if node.is_null() => Vec::new(),
            Value::Scalar(s) => vec![(s.text.clone(), node.pos)],
            Value::Map(_) => {
                let message = format!("`{field}` must be a list, found a mapping");
                self.wrong(node.pos, field, "list", "mapping", message);
                Vec::new()
            }
        }
    }

    /// A mapping's entries; an empty value is an empty mapping.
    pub fn mapping<'n>(&mut self, node: &'n Node, field: &str) -> Option<&'n [(Key, Node)]> {
        match &node.value {
            Value::Map(entries) => Some(entries),
            _ if node.is_null() => Some(&[]),
            _ => {
                let found = node.kind_name();
                let message =
                    format!("`{field}` must be a mapping (key: value lines), found {found}");
                self.wrong(node.pos, field, "mapping", found, message);
                None
            }
        }
    }

    /// A mapping of text to text, in file order.
    pub fn text_map(&mut self, node: &Node, field: &str) -> Vec<(String, String)> {
        let Some(entries) = self.mapping(node, field) else { return Vec::new() };
        entries
            .iter()
            .filter_map(|(k, v)| {
                self.text(v, &format!("{field}.{}", k.text)).map(|t| (k.text.clone(), t))
            })
            .collect()
    }

    /// Warn about keys not in `known` (likely typos), naming the known ones.
    pub fn unknown_keys(&mut self, entries: &[(Key, Node)], known: &[&str], what: &str) {
        for (k, _) in entries {
            if !known.contains(&k.text.as_str()) {
                let known = known.join(", ");
                let message = format!("unknown {what} `{}` is ignored (known: {known})", k.text);
                let code = ProblemCode::UnknownKey { key: k.text.clone(), known };
                self.problems.push(Problem::warning(self.path, k.pos, message).with_code(code));
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::yaml::parse;

    fn read<T>(yaml: &str, f: impl FnOnce(&mut Reader<'_>, &Node) -> T) -> (T, Vec<String>) {
        let node = parse(yaml, 1).unwrap();
        let mut r = Reader::new(Path::new("f.yaml"));
        let out = f(&mut r, &node);
        (out, r.problems.iter().map(ToString::to_string).collect())
    }

    #[test]
    fn booleans_are_strict_about_yes() {
        let (v, p) = read("a: yes", |r, n| r.bool(n.get("a").unwrap(), "a"));
        assert_eq!(v, None);
        assert_eq!(p, vec!["f.yaml:1:4: `a` must be true or false, found `yes`"]);
        let (v, p) = read("a: 'true'", |r, n| r.bool(n.get("a").unwrap(), "a"));
        assert_eq!((v, p.len()), (Some(true), 0));
    }

    #[test]
    fn lists_accept_a_single_item_and_reject_mappings() {
        let (v, _) = read("t: one", |r, n| r.text_list(n.get("t").unwrap(), "t"));
        assert_eq!(v, vec![("one".to_string(), Pos::new(1, 4))]);
        let (_, p) = read("t:\n  a: b", |r, n| r.text_list(n.get("t").unwrap(), "t"));
        assert_eq!(p, vec!["f.yaml:2:3: `t` must be a list, found a mapping"]);
    }

    #[test]
    fn numbers_read_as_text_keep_their_spelling() {
        let (v, _) = read("m:\n  version: 1.10", |r, n| r.text_map(n.get("m").unwrap(), "m"));
        assert_eq!(v, vec![("version".to_string(), "1.10".to_string())]);
    }

    #[test]
    fn positive_ints_reject_zero_and_text() {
        let (_, p) = read("a: 0\nb: ten", |r, n| {
            (r.positive_int(n.get("a").unwrap(), "a"), r.positive_int(n.get("b").unwrap(), "b"))
        });
        assert_eq!(p.len(), 2);
        assert!(p[1].starts_with("f.yaml:2:4: `b` must be a positive whole number, found `ten`"));
    }
}
