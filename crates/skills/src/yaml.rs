//! YAML text → a small position-carrying tree ([`Node`]) on top of saphyr (YAML 1.2).
//! Every node knows its 1-based line and column in the *file* (callers pass the line where
//! the YAML starts, e.g. after a frontmatter fence). Typed reading of fields lives in
//! `yaml_read`; the lenient retry for unquoted colons lives in `yaml_repair`.

use std::borrow::Cow;

use saphyr::{MarkedYaml, Scalar as SaphyrScalar, YamlData, YamlLoader};
use saphyr_parser::{Event, Parser, ScanError, Span, SpannedEventReceiver};
use serde_json::Value as Json;

use crate::problem::Pos;

/// A parsed YAML node with its position.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Node {
    pub pos: Pos,
    pub value: Value,
}

#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Value {
    Scalar(Scalar),
    Seq(Vec<Node>),
    /// Entries in file order; keys are unique (duplicates are a parse error).
    Map(Vec<(Key, Node)>),
}

/// A mapping key (always a scalar) with its position.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Key {
    pub text: String,
    pub pos: Pos,
}

/// A scalar: its text as written (without quotes) and what the YAML 1.2 core schema makes of it.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Scalar {
    pub text: String,
    pub kind: ScalarKind,
}

#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) enum ScalarKind {
    Null,
    Bool(bool),
    Int(i64),
    Float(f64),
    Str,
}

/// A YAML syntax error at a position in the file.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct SyntaxError {
    pub pos: Pos,
    pub message: String,
}

impl Node {
    /// Entries when this node is a mapping.
    pub fn as_map(&self) -> Option<&[(Key, Node)]> {
        match &self.value {
            Value::Map(entries) => Some(entries),
            _ => None,
        }
    }

    /// The value stored under `key` when this node is a mapping.
    pub fn get(&self, key: &str) -> Option<&Node> {
        self.as_map()?.iter().find(|(k, _)| k.text == key).map(|(_, v)| v)
    }

    pub fn is_null(&self) -> bool {
        matches!(&self.value, Value::Scalar(Scalar { kind: ScalarKind::Null, .. }))
    }

    /// The text of any non-null scalar (numbers and booleans as written).
    pub fn scalar_text(&self) -> Option<&str> {
        match &self.value {
            Value::Scalar(s) if s.kind != ScalarKind::Null => Some(&s.text),
            _ => None,
        }
    }

    /// "a list", "a mapping", "text", ... for messages.
    pub fn kind_name(&self) -> &'static str {
        match &self.value {
            Value::Seq(_) => "a list",
            Value::Map(_) => "a mapping",
            Value::Scalar(s) => match s.kind {
                ScalarKind::Null => "empty",
                ScalarKind::Bool(_) => "true/false",
                ScalarKind::Int(_) | ScalarKind::Float(_) => "a number",
                ScalarKind::Str => "text",
            },
        }
    }

    /// The node as JSON (for tool parameter schemas and protocol files).
    pub fn to_json(&self) -> Json {
        match &self.value {
            Value::Scalar(s) => match s.kind {
                ScalarKind::Null => Json::Null,
                ScalarKind::Bool(b) => Json::Bool(b),
                ScalarKind::Int(i) => Json::from(i),
                ScalarKind::Float(f) => serde_json::Number::from_f64(f)
                    .map_or_else(|| Json::String(s.text.clone()), Json::Number),
                ScalarKind::Str => Json::String(s.text.clone()),
            },
            Value::Seq(items) => Json::Array(items.iter().map(Node::to_json).collect()),
            Value::Map(entries) => {
                Json::Object(entries.iter().map(|(k, v)| (k.text.clone(), v.to_json())).collect())
            }
        }
    }
}

/// Parse one YAML document. `first_line` is the file line on which `text` starts.
/// An empty document is a null scalar at `first_line`.
pub(crate) fn parse(text: &str, first_line: usize) -> Result<Node, SyntaxError> {
    let at = |line: usize, col0: usize| Pos::new(line + first_line - 1, col0 + 1);
    let scan_error = |e: &ScanError| SyntaxError {
        pos: at(e.marker().line(), e.marker().col()),
        message: e.info().to_string(),
    };
    let mut loader: YamlLoader<'_, MarkedYaml<'_>> = YamlLoader::default();
    loader.early_parse(false);
    let mut parser = Parser::new_from_str(text);
    let mut receiver = NoAliases { loader: &mut loader, alias: None };
    parser.load(&mut receiver, false).map_err(|e| scan_error(&e))?;
    if let Some(span) = receiver.alias {
        return Err(SyntaxError {
            pos: at(span.start.line(), span.start.col()),
            message: "YAML aliases (`*name`) are not supported: write the value out".into(),
        });
    }
    if let Some(e) = loader.error() {
        return Err(scan_error(e));
    }
    match loader.into_documents().into_iter().next() {
        Some(doc) => convert(&doc, &at),
        None => Ok(Node {
            pos: Pos::new(first_line, 1),
            value: Value::Scalar(Scalar { text: String::new(), kind: ScalarKind::Null }),
        }),
    }
}

/// The loader, noting the first alias: saphyr resolves an alias into a copy of its anchor's
/// node, so the tree cannot tell one was used.
struct NoAliases<'a, 'input> {
    loader: &'a mut YamlLoader<'input, MarkedYaml<'input>>,
    alias: Option<Span>,
}

impl<'input> SpannedEventReceiver<'input> for NoAliases<'_, 'input> {
    fn on_event(&mut self, ev: Event<'input>, span: Span) {
        if matches!(ev, Event::Alias(_)) && self.alias.is_none() {
            self.alias = Some(span);
        }
        self.loader.on_event(ev, span);
    }
}

fn convert(node: &MarkedYaml<'_>, at: &dyn Fn(usize, usize) -> Pos) -> Result<Node, SyntaxError> {
    let pos = at(node.span.start.line(), node.span.start.col());
    let value = match &node.data {
        YamlData::Representation(text, style, tag) => {
            let parsed = SaphyrScalar::parse_from_cow_and_metadata(
                Cow::Borrowed(text.as_ref()),
                *style,
                tag.as_ref(),
            );
            let kind = match parsed {
                Some(SaphyrScalar::Null) => ScalarKind::Null,
                Some(SaphyrScalar::Boolean(b)) => ScalarKind::Bool(b),
                Some(SaphyrScalar::Integer(i)) => ScalarKind::Int(i),
                Some(SaphyrScalar::FloatingPoint(f)) => ScalarKind::Float(f.into_inner()),
                Some(SaphyrScalar::String(_)) => ScalarKind::Str,
                None => {
                    return Err(SyntaxError {
                        pos,
                        message: format!("`{text}` does not match its explicit YAML tag"),
                    });
                }
            };
            Value::Scalar(Scalar { text: text.to_string(), kind })
        }
        YamlData::Value(v) => {
            // Only produced with early parsing, which is off; map it faithfully anyway.
            let (text, kind) = match v {
                SaphyrScalar::Null => (String::new(), ScalarKind::Null),
                SaphyrScalar::Boolean(b) => (b.to_string(), ScalarKind::Bool(*b)),
                SaphyrScalar::Integer(i) => (i.to_string(), ScalarKind::Int(*i)),
                SaphyrScalar::FloatingPoint(f) => {
                    (f.to_string(), ScalarKind::Float(f.into_inner()))
                }
                SaphyrScalar::String(s) => (s.to_string(), ScalarKind::Str),
            };
            Value::Scalar(Scalar { text, kind })
        }
        YamlData::Sequence(items) => {
            Value::Seq(items.iter().map(|n| convert(n, at)).collect::<Result<_, _>>()?)
        }
        YamlData::Mapping(map) => {
            let mut entries = Vec::with_capacity(map.len());
            for (k, v) in map {
                let key_pos = at(k.span.start.line(), k.span.start.col());
                let key = match convert(k, at)?.value {
                    Value::Scalar(s) => Key { text: s.text, pos: key_pos },
                    _ => {
                        return Err(SyntaxError {
                            pos: key_pos,
                            message: "mapping keys must be plain text, not lists or mappings"
                                .into(),
                        });
                    }
                };
                entries.push((key, convert(v, at)?));
            }
            Value::Map(entries)
        }
        YamlData::Tagged(_, inner) => return convert(inner, at),
        YamlData::Alias(_) => {
            return Err(SyntaxError {
                pos,
                message: "YAML aliases (`*name`) are not supported".into(),
            });
        }
        YamlData::BadValue => {
            return Err(SyntaxError { pos, message: "value cannot be read".into() });
        }
    };
    Ok(Node { pos, value })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn positions_are_file_lines_and_one_based_columns() {
        let node = parse("name: bazi\nmeta:\n  k: v\n", 2).unwrap();
        let name = node.get("name").unwrap();
        assert_eq!(name.pos, Pos::new(2, 7));
        assert_eq!(node.get("meta").unwrap().get("k").unwrap().pos, Pos::new(4, 6));
        let key = &node.as_map().unwrap()[1].0;
        assert_eq!((key.text.as_str(), key.pos), ("meta", Pos::new(3, 1)));
    }

    #[test]
    fn scalars_keep_their_text_and_core_schema_kind() {
        let node = parse("a: 1.10\nb: 'true'\nc: true\nd: yes\ne:\n", 1).unwrap();
        let scalar = |k: &str| match &node.get(k).unwrap().value {
            Value::Scalar(s) => s.clone(),
            other => panic!("{other:?}"),
        };
        assert_eq!(scalar("a").text, "1.10");
        assert_eq!(scalar("b").kind, ScalarKind::Str);
        assert_eq!(scalar("c").kind, ScalarKind::Bool(true));
        assert_eq!(scalar("d").kind, ScalarKind::Str, "YAML 1.2: yes is text");
        assert_eq!(scalar("e").kind, ScalarKind::Null);
    }

    #[test]
    fn syntax_errors_carry_file_positions() {
        let err = parse("name: x\n  bad: [\n", 5).unwrap_err();
        assert!(err.pos.line >= 5, "{err:?}");
        let dup = parse("a: 1\na: 2\n", 1).unwrap_err();
        assert_eq!(dup.pos.line, 2, "{dup:?}");
        assert!(dup.message.contains("duplicate"), "{dup:?}");
    }

    #[test]
    fn an_alias_is_refused_where_it_is_used() {
        let err = parse("name: bazi\nbase: &b text\ndescription: *b\n", 1).unwrap_err();
        assert_eq!(err.pos, Pos::new(3, 14), "{err:?}");
        assert!(err.message.contains("aliases"), "{err:?}");
        let merged = parse("a: &x {k: v}\nb:\n  <<: *x\n", 4).unwrap_err();
        assert_eq!(merged.pos.line, 6, "{merged:?}");
    }

    #[test]
    fn empty_document_is_null() {
        assert!(parse("", 3).unwrap().is_null());
        assert!(parse("# only a comment\n", 3).unwrap().is_null());
    }

    #[test]
    fn json_conversion_keeps_structure() {
        let node =
            parse("type: object\nproperties:\n  n: {type: integer, minimum: 1}\n", 1).unwrap();
        assert_eq!(
            node.to_json(),
            serde_json::json!({"type": "object", "properties": {"n": {"type": "integer", "minimum": 1}}})
        );
    }
}
