//! Shared reading of Markdown part files that must open with frontmatter (scenarios, cases):
//! fence and YAML errors as positioned problems, the frontmatter mapping, and the body.

use std::path::Path;

use crate::frontmatter::split;
use crate::problem::ProblemCode;
use crate::yaml::Node;
use crate::yaml_read::Reader;

/// The frontmatter mapping node and the body, or `None` after recording why not.
pub(crate) fn read_md<'t>(
    r: &mut Reader<'_>,
    text: &'t str,
    what: &str,
) -> Option<(Node, &'t str)> {
    let parts = match split(text) {
        Ok(parts) => parts,
        Err(e) => {
            r.error(e.pos, format!("{} ({what} files open with frontmatter)", e.message));
            return None;
        }
    };
    let node = r.document(parts.yaml, parts.yaml_line, " in frontmatter")?;
    if node.as_map().is_none() {
        r.error(
            node.pos,
            format!("frontmatter must be a mapping of fields, found {}", node.kind_name()),
        );
        return None;
    }
    Some((node, parts.body))
}

/// The text of a required field, or an error at the fence when it is missing.
pub(crate) fn required(r: &mut Reader<'_>, node: &Node, field: &str) -> Option<String> {
    match node.get(field) {
        Some(n) if !n.is_null() => r.text(n, field).filter(|t| {
            let empty = t.trim().is_empty();
            if empty {
                let code = ProblemCode::EmptyField { field: field.to_string() };
                r.error_of(n.pos, code, format!("`{field}` is empty"));
            }
            !empty
        }),
        Some(n) => {
            let code = ProblemCode::EmptyField { field: field.to_string() };
            r.error_of(n.pos, code, format!("`{field}` is empty; it is required"));
            None
        }
        None => {
            r.error_of(
                crate::problem::Pos::START,
                ProblemCode::MissingField { field: field.to_string() },
                format!("missing required field `{field}` in the frontmatter"),
            );
            None
        }
    }
}

/// `path`'s problems collected by `r`, for use by callers that only have a path.
pub(crate) fn reader(path: &Path) -> Reader<'_> {
    Reader::new(path)
}
