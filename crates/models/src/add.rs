//! Adding a model the person already has: any GGUF file, checked by its magic, copied into
//! the models folder under an id they choose (or one made from the file name) while its
//! SHA-256 is computed, then renamed into place. Blocking (file IO): async callers run it on
//! a blocking thread.

use std::fs::{File, OpenOptions};
use std::io::{Read as _, Write as _};
use std::path::Path;

use sha2::{Digest as _, Sha256};

use crate::dir::{Installed, ModelsDir};
use crate::fsutil::{ensure_space, is_disk_full, owner_only};
use crate::gguf::check_gguf;
use crate::id::{check_id, id_from_file_name};
use crate::sidecar::{Sidecar, Source};
use crate::{ModelsError, now_rfc3339};

/// Copy the GGUF file at `source` into `dir` as model `id` (made from the file name when
/// `None`). Refused, with nothing written, when the file is not GGUF, the id is taken or
/// the disk lacks room.
pub fn add_file(
    dir: &ModelsDir,
    source: &Path,
    id: Option<&str>,
) -> Result<Installed, ModelsError> {
    check_gguf(source)?;
    let file_name = source.file_name().and_then(|n| n.to_str()).unwrap_or("model.gguf");
    let id = match id {
        Some(id) => id.to_string(),
        None => id_from_file_name(file_name),
    };
    check_id(&id)?;
    dir.ensure()?;
    let target = dir.model_file(&id);
    if target.exists() {
        return Err(ModelsError::AlreadyInstalled { id });
    }
    let mut input = File::open(source).map_err(|e| ModelsError::io("cannot open", source, e))?;
    let size = input.metadata().map_err(|e| ModelsError::io("cannot read", source, e))?.len();
    ensure_space(dir.path(), size)?;
    let part = dir.part_file(&id);
    let mut output = OpenOptions::new()
        .create(true)
        .write(true)
        .truncate(false)
        .open(&part)
        .map_err(|e| ModelsError::io("cannot create", &part, e))?;
    output.try_lock().map_err(|_| ModelsError::Busy { id: id.clone() })?;
    owner_only(&part)?;
    output.set_len(0).map_err(|e| ModelsError::io("cannot write", &part, e))?;
    let copied = copy_hashing(&mut input, &mut output, source, &part);
    let sha256 = match copied {
        Ok(sha) => sha,
        Err(e) => {
            drop(output);
            let _ = std::fs::remove_file(&part);
            return Err(e);
        }
    };
    drop(output);
    std::fs::rename(&part, &target)
        .map_err(|e| ModelsError::io("cannot move into place", &target, e))?;
    let name = file_name.strip_suffix(".gguf").unwrap_or(file_name).to_string();
    let sidecar = Sidecar {
        id: id.clone(),
        name,
        source: Source::File { path: source.display().to_string() },
        sha256,
        size_bytes: size,
        added_at: now_rfc3339(),
        catalog: None,
    };
    sidecar.write(&dir.sidecar_file(&id))?;
    dir.get(&id)
}

/// Copy everything, returning the hex SHA-256 of what was copied.
fn copy_hashing(
    input: &mut File,
    output: &mut File,
    source: &Path,
    part: &Path,
) -> Result<String, ModelsError> {
    let mut hasher = Sha256::new();
    let mut buf = vec![0u8; 1024 * 1024];
    loop {
        let n = input.read(&mut buf).map_err(|e| ModelsError::io("cannot read", source, e))?;
        if n == 0 {
            break;
        }
        output.write_all(&buf[..n]).map_err(|e| write_error(e, part))?;
        hasher.update(&buf[..n]);
    }
    output.sync_all().map_err(|e| write_error(e, part))?;
    Ok(hex::encode(hasher.finalize()))
}

/// A write error; the partial copy is removed by the caller, so a full disk is said plainly.
fn write_error(err: std::io::Error, part: &Path) -> ModelsError {
    if is_disk_full(&err) {
        ModelsError::io(
            "the disk filled up (the partial copy was removed) while copying to",
            part,
            err,
        )
    } else {
        ModelsError::io("cannot write", part, err)
    }
}
