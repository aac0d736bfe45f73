//! `protocols/*.yaml`: guided multi-step coaching protocols. Their schema belongs to the
//! protocol engine; here a file only has to be valid YAML, and is handed over as JSON along
//! with its path and text (so the engine can report its own positioned errors).

use std::path::{Path, PathBuf};

use serde::Serialize;
use serde_json::Value as Json;

use super::{Parsed, stem};
use crate::problem::Problem;
use crate::yaml::parse;

/// One protocol file, parsed as YAML only.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ProtocolSource {
    /// File stem, e.g. `dan-koe-reset`.
    pub id: String,
    pub path: PathBuf,
    pub text: String,
    pub value: Json,
}

pub(crate) fn parse_protocol(path: &Path, text: &str) -> Parsed<ProtocolSource> {
    match parse(text, 1) {
        Ok(node) => {
            let value = node.to_json();
            (
                Some(ProtocolSource {
                    id: stem(path),
                    path: path.to_path_buf(),
                    text: text.to_string(),
                    value,
                }),
                Vec::new(),
            )
        }
        Err(e) => (
            None,
            vec![Problem::error(path, e.pos, format!("invalid YAML in protocol: {}", e.message))],
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn protocols_only_need_to_be_yaml() {
        let (p, problems) =
            parse_protocol(Path::new("s/protocols/reset.yaml"), "steps:\n  - id: a\n");
        assert!(problems.is_empty());
        let p = p.unwrap();
        assert_eq!((p.id.as_str(), &p.value["steps"][0]["id"]), ("reset", &serde_json::json!("a")));
        let (p, problems) =
            parse_protocol(Path::new("s/protocols/bad.yaml"), "steps:\n  - id: [a\n");
        assert!(p.is_none());
        assert!(problems[0].to_string().starts_with("s/protocols/bad.yaml:3:"), "{problems:?}");
    }
}
