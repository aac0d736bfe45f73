//! Recognising a GGUF file by its first four bytes (`GGUF`), before a file is copied in or a
//! download is put into place. Its context length is read by `gguf_meta.rs`; the rest of its
//! metadata is the engine's (`crates/local-llm`).

use std::io::Read as _;
use std::path::Path;

use crate::ModelsError;

/// The bytes every GGUF file starts with.
pub const GGUF_MAGIC: &[u8; 4] = b"GGUF";

/// Ok when the file at `path` starts with the GGUF magic.
pub fn check_gguf(path: &Path) -> Result<(), ModelsError> {
    let mut file =
        std::fs::File::open(path).map_err(|e| ModelsError::io("cannot open", path, e))?;
    let mut magic = [0u8; 4];
    match file.read_exact(&mut magic) {
        Ok(()) if &magic == GGUF_MAGIC => Ok(()),
        Ok(()) => Err(ModelsError::NotGguf { path: path.to_path_buf() }),
        Err(e) if e.kind() == std::io::ErrorKind::UnexpectedEof => {
            Err(ModelsError::NotGguf { path: path.to_path_buf() })
        }
        Err(e) => Err(ModelsError::io("cannot read", path, e)),
    }
}
