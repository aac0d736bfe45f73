//! Scoped access to the files of a skill folder: listing them (metadata only, never their
//! contents), resolving a relative path while refusing anything that leaves the folder (`..`,
//! absolute paths, symlinks pointing out), and reading text capped at a size with an explicit
//! truncation marker.

use std::collections::HashMap;
use std::path::{Component, Path, PathBuf};
use std::sync::{Mutex, PoisonError};

use serde::Serialize;

use crate::discover::SKILL_FILE;
use crate::error::SkillsError;
use crate::fsio::{Fingerprint, Reads, fingerprint, read_bytes};
use crate::parts::PartKind;

/// Listing stops after this many files (a skill is not a file dump).
pub(crate) const MAX_LISTED: usize = 1000;
const MAX_LIST_DEPTH: usize = 8;

/// What a file in a skill folder is for.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum ResourceKind {
    Script,
    Reference,
    Asset,
    Part,
    Other,
}

/// A file of a skill, as listed (not read).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ResourceInfo {
    /// Relative to the skill folder, `/`-separated.
    pub path: String,
    pub bytes: u64,
    pub kind: ResourceKind,
}

/// A resource's text, possibly truncated.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Resource {
    pub path: String,
    /// The text; when truncated it ends with a `[truncated: ...]` marker line.
    pub text: String,
    /// The file's full size.
    pub bytes: u64,
    pub truncated: bool,
}

/// Files of the skill folder (SKILL.md and hidden files excluded), sorted by path.
pub(crate) fn list(skill_dir: &Path) -> Vec<ResourceInfo> {
    let mut out = Vec::new();
    let root = skill_dir.canonicalize().unwrap_or_else(|_| skill_dir.to_path_buf());
    walk(&root, &root, 0, &mut out);
    out.sort_by(|a, b| a.path.cmp(&b.path));
    out
}

fn walk(root: &Path, dir: &Path, depth: usize, out: &mut Vec<ResourceInfo>) {
    let Ok(entries) = std::fs::read_dir(dir) else { return };
    for entry in entries.flatten() {
        if out.len() >= MAX_LISTED {
            return;
        }
        let path = entry.path();
        if entry.file_name().to_str().is_none_or(|n| n.starts_with('.')) {
            continue;
        }
        // Symlinks are listed only when they stay inside the folder.
        let Ok(real) = path.canonicalize() else { continue };
        if !real.starts_with(root) {
            continue;
        }
        let Ok(meta) = std::fs::metadata(&real) else { continue };
        let Ok(rel) = path.strip_prefix(root) else { continue };
        if meta.is_dir() {
            if depth < MAX_LIST_DEPTH && entry.file_type().is_ok_and(|t| !t.is_symlink()) {
                walk(root, &path, depth + 1, out);
            }
        } else if rel != Path::new(SKILL_FILE) {
            out.push(ResourceInfo { path: slash_path(rel), bytes: meta.len(), kind: kind_of(rel) });
        }
    }
}

fn slash_path(rel: &Path) -> String {
    rel.components().map(|c| c.as_os_str().to_string_lossy()).collect::<Vec<_>>().join("/")
}

fn kind_of(rel: &Path) -> ResourceKind {
    if PartKind::of_relative(rel).is_some() {
        return ResourceKind::Part;
    }
    match rel.components().next().and_then(|c| c.as_os_str().to_str()) {
        Some("scripts") => ResourceKind::Script,
        Some("references") => ResourceKind::Reference,
        Some("assets") => ResourceKind::Asset,
        _ => ResourceKind::Other,
    }
}

/// The real path of `rel` inside `skill_dir`, or why it is refused.
pub(crate) fn resolve(skill: &str, skill_dir: &Path, rel: &str) -> Result<PathBuf, SkillsError> {
    let refuse = |reason| SkillsError::PathEscape {
        skill: skill.to_string(),
        path: rel.to_string(),
        reason,
    };
    let rel_path = Path::new(rel);
    if rel.trim().is_empty() {
        return Err(refuse("the path is empty"));
    }
    if rel_path.is_absolute()
        || rel_path.has_root()
        || rel.starts_with('/')
        || rel.starts_with('\\')
    {
        return Err(refuse("absolute paths are not allowed"));
    }
    for c in rel_path.components() {
        match c {
            Component::ParentDir => return Err(refuse("`..` is not allowed")),
            Component::Prefix(_) | Component::RootDir => {
                return Err(refuse("absolute paths are not allowed"));
            }
            Component::CurDir | Component::Normal(_) => {}
        }
    }
    let base = skill_dir.canonicalize().map_err(|e| SkillsError::io(skill_dir, e))?;
    let not_found =
        || SkillsError::ResourceNotFound { skill: skill.to_string(), path: rel.to_string() };
    let real = base.join(rel_path).canonicalize().map_err(|_| not_found())?;
    if !real.starts_with(&base) {
        return Err(refuse("it is a link pointing outside the skill folder"));
    }
    if !real.is_file() {
        return Err(not_found());
    }
    Ok(real)
}

/// Loaded resources by real path, kept until the file changes (or the cap does).
#[derive(Default)]
pub(crate) struct ResourceCache {
    slots: Mutex<HashMap<PathBuf, (Fingerprint, u64, Resource)>>,
}

impl ResourceCache {
    /// [`load`] through the cache.
    pub fn load(
        &self,
        skill: &str,
        skill_dir: &Path,
        rel: &str,
        cap: u64,
        reads: &Reads,
    ) -> Result<Resource, SkillsError> {
        let real = resolve(skill, skill_dir, rel)?;
        let fp = fingerprint(&real);
        let mut slots = self.slots.lock().unwrap_or_else(PoisonError::into_inner);
        if let (Some(fp), Some((cached_fp, cached_cap, res))) = (fp, slots.get(&real))
            && *cached_fp == fp
            && *cached_cap == cap
        {
            return Ok(Resource { path: rel.to_string(), ..res.clone() });
        }
        let res = load(skill, skill_dir, rel, cap, reads)?;
        if let Some(fp) = fp {
            slots.insert(real, (fp, cap, res.clone()));
        }
        Ok(res)
    }

    pub fn purge_under(&self, dir: &Path) {
        let dir = dir.canonicalize().unwrap_or_else(|_| dir.to_path_buf());
        self.slots
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .retain(|p, _| !p.starts_with(&dir));
    }
}

/// Read a resource's text, keeping at most `cap` bytes (cut at a character boundary) and
/// appending a marker when cut.
pub(crate) fn load(
    skill: &str,
    skill_dir: &Path,
    rel: &str,
    cap: u64,
    reads: &Reads,
) -> Result<Resource, SkillsError> {
    let real = resolve(skill, skill_dir, rel)?;
    let total = std::fs::metadata(&real).map_err(|e| SkillsError::io(&real, e))?.len();
    let mut bytes = read_bytes(&real, cap, reads)?;
    let truncated = bytes.len() as u64 > cap;
    if truncated {
        bytes.truncate(usize::try_from(cap).unwrap_or(usize::MAX));
    }
    let text = match String::from_utf8(bytes) {
        Ok(text) => text,
        Err(e) if truncated && e.utf8_error().error_len().is_none() => {
            // The cut split a character: drop its first bytes.
            let valid = e.utf8_error().valid_up_to();
            let mut bytes = e.into_bytes();
            bytes.truncate(valid);
            String::from_utf8(bytes)
                .map_err(|_| SkillsError::NotText { path: real.clone(), bytes: total })?
        }
        Err(_) => return Err(SkillsError::NotText { path: real, bytes: total }),
    };
    let mut text = text;
    if truncated {
        text.push_str(&format!(
            "\n\n[truncated: showing the first {} of {total} bytes of {rel}]\n",
            text.len()
        ));
    }
    Ok(Resource { path: rel.to_string(), text, bytes: total, truncated })
}

#[cfg(test)]
#[path = "resources_tests.rs"]
mod tests;
