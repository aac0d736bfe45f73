//! JSON-schema checks for declared tools: `parameters` must be a valid JSON schema (checked
//! against the draft 2020-12 meta-schema with the `jsonschema` crate) describing an object,
//! and example `arguments` must satisfy it. Errors point at the offending YAML node.

use serde_json::{Value as Json, json};

use crate::yaml::{Node, Value};
use crate::yaml_read::Reader;

/// The validated parameters schema (the empty object schema when omitted), or `None` after
/// recording why it is invalid.
pub(super) fn check_parameters(r: &mut Reader<'_>, node: Option<&Node>) -> Option<Json> {
    let Some(node) = node.filter(|n| !n.is_null()) else {
        return Some(json!({"type": "object", "properties": {}}));
    };
    if node.as_map().is_none() {
        r.error(node.pos, format!("`parameters` must be a JSON schema mapping (type: object, properties: ...), found {}", node.kind_name()));
        return None;
    }
    let schema = node.to_json();
    if let Err(e) = jsonschema::draft202012::meta::validate(&schema) {
        let at = node_at(node, &e.instance_path().to_string());
        r.error(at.pos, format!("`parameters` is not a valid JSON schema: {e}"));
        return None;
    }
    if schema.get("type") != Some(&json!("object")) {
        let pos = node.get("type").map_or(node.pos, |n| n.pos);
        r.error(pos, "`parameters` must describe an object: add `type: object` with `properties`");
        return None;
    }
    Some(schema)
}

/// The examples as JSON; a mapping example with `arguments` must satisfy `schema`.
pub(super) fn check_examples(r: &mut Reader<'_>, node: &Node, schema: Option<&Json>) -> Vec<Json> {
    let items = match &node.value {
        Value::Seq(items) => items.as_slice(),
        _ if node.is_null() => &[],
        _ => {
            r.error(node.pos, format!("`examples` must be a list, found {}", node.kind_name()));
            return Vec::new();
        }
    };
    let validator = schema.and_then(|s| jsonschema::draft202012::new(s).ok());
    for item in items {
        let (Some(args), Some(validator)) = (item.get("arguments"), validator.as_ref()) else {
            continue;
        };
        if let Err(e) = validator.validate(&args.to_json()) {
            let at = node_at(args, &e.instance_path().to_string());
            r.error(at.pos, format!("example arguments do not match `parameters`: {e}"));
        }
    }
    items.iter().map(Node::to_json).collect()
}

/// The deepest node along a JSON pointer (`/properties/n/type`).
pub(crate) fn node_at<'n>(root: &'n Node, pointer: &str) -> &'n Node {
    let mut node = root;
    for raw in pointer.split('/').skip(1) {
        let seg = raw.replace("~1", "/").replace("~0", "~");
        let next = match &node.value {
            Value::Map(_) => node.get(&seg),
            Value::Seq(items) => seg.parse::<usize>().ok().and_then(|i| items.get(i)),
            Value::Scalar(_) => None,
        };
        match next {
            Some(n) => node = n,
            None => break,
        }
    }
    node
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::problem::Pos;
    use crate::yaml::parse;

    #[test]
    fn pointers_find_nested_nodes() {
        let node = parse("properties:\n  a/b:\n    type: 3\nlist: [x, y]\n", 1).unwrap();
        assert_eq!(node_at(&node, "/properties/a~1b/type").pos, Pos::new(3, 11));
        assert_eq!(node_at(&node, "/list/1").pos, Pos::new(4, 11));
        assert_eq!(node_at(&node, "/missing/x").pos, Pos::new(1, 1));
    }
}
