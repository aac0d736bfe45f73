//! `protocols/*.yaml`: guided multi-step coaching protocols. The format and its checks live
//! in [`crate::protocol`]; here a file becomes a [`ProtocolSource`] (the definition with its
//! file) for the registry's caches and `vibe skills check`.

use std::path::{Path, PathBuf};

use serde::Serialize;

use super::{Parsed, stem};
use crate::protocol::{Protocol, parse_protocol_def};

/// One valid protocol file.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ProtocolSource {
    /// File stem, equal to `def.id`, e.g. `dankoe`.
    pub id: String,
    pub path: PathBuf,
    pub def: Protocol,
}

pub(crate) fn parse_protocol(path: &Path, text: &str) -> Parsed<ProtocolSource> {
    let (def, problems) = parse_protocol_def(path, text);
    (def.map(|def| ProtocolSource { id: stem(path), path: path.to_path_buf(), def }), problems)
}
