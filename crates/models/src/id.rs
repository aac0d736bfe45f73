//! Model ids: what names an installed model's files (`<id>.gguf`, `<id>.json`) and what
//! `llm.model` holds for the `local` preset. Checking an id, and deriving one from a file
//! name for a model added by path.

use crate::ModelsError;

const MAX_LEN: usize = 80;

/// Ok when `id` can name a model's files.
pub fn check_id(id: &str) -> Result<(), ModelsError> {
    let ok = !id.is_empty()
        && id.len() <= MAX_LEN
        && id.bytes().next().is_some_and(|b| b.is_ascii_lowercase() || b.is_ascii_digit())
        && id.bytes().all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b"._-".contains(&b))
        && !id.ends_with(".part")
        && !id.ends_with(".gguf")
        && !id.ends_with(".json");
    if ok { Ok(()) } else { Err(ModelsError::BadId { id: id.to_string() }) }
}

/// An id for a file added by path: its name without `.gguf`, lowercased, other characters
/// turned into `-` (`My Model Q4.gguf` → `my-model-q4`).
pub fn id_from_file_name(name: &str) -> String {
    let stem = name.strip_suffix(".gguf").or_else(|| name.strip_suffix(".GGUF")).unwrap_or(name);
    let mut id = String::new();
    for c in stem.chars() {
        let c = c.to_ascii_lowercase();
        if c.is_ascii_lowercase() || c.is_ascii_digit() || c == '.' || c == '_' {
            id.push(c);
        } else if !id.ends_with('-') {
            id.push('-');
        }
    }
    let id = id.trim_matches(|c| c == '-' || c == '.' || c == '_');
    let mut id: String = id.chars().take(MAX_LEN).collect();
    if id.is_empty() {
        id = "model".into();
    }
    id
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_name_files_safely() {
        for good in ["qwen2.5-1.5b-instruct-q4_k_m", "a", "9x"] {
            assert!(check_id(good).is_ok(), "{good}");
        }
        for bad in ["", "../x", "A", "-a", "a/b", "a b", "x.part", "x.gguf", &"a".repeat(81)] {
            assert!(check_id(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn ids_from_file_names_are_valid_slugs() {
        assert_eq!(id_from_file_name("My Model Q4_K_M.gguf"), "my-model-q4_k_m");
        assert_eq!(id_from_file_name("Llama-3.2-1B.GGUF"), "llama-3.2-1b");
        assert_eq!(id_from_file_name("模型.gguf"), "model");
        for name in ["My Model.gguf", "--x--.gguf", "模型.gguf", "a.b.gguf"] {
            assert!(check_id(&id_from_file_name(name)).is_ok(), "{name}");
        }
    }
}
