//! The catalogue of downloadable models: the one shipped in this crate (`catalog.json`), or
//! one named by the `models.catalog` setting or `VIBE_MODELS_CATALOG` (a file path or an
//! http(s) URL; the environment wins), so tests and mirrors can point elsewhere. Parsing and
//! validation only; downloading a model is `download.rs`'s.

use std::collections::HashSet;
use std::path::Path;

use serde::{Deserialize, Serialize};

use crate::ModelsError;
use crate::id::check_id;

/// The environment variable that overrides the catalogue's location.
pub const CATALOG_ENV: &str = "VIBE_MODELS_CATALOG";

/// The catalogue shipped with the app.
const SHIPPED: &str = include_str!("catalog.json");
/// How large a catalogue may be (a few entries are a few KB).
const CATALOG_CAP: u64 = 1024 * 1024;

/// One downloadable model.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CatalogEntry {
    /// The installed file's name (`<id>.gguf`) and what `llm.model` names.
    pub id: String,
    pub name: String,
    /// Parameter count as published (`1.5B`).
    pub parameters: String,
    pub quantization: String,
    /// Where the GGUF file is downloaded from (http or https; redirects are followed).
    pub url: String,
    pub size_bytes: u64,
    /// Lowercase hex SHA-256 of the whole file.
    pub sha256: String,
    pub license: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub license_url: Option<String>,
    /// The model's trained context, in tokens.
    pub context_length: u32,
    /// Memory needed to run it (file + a 4,096-token KV cache, rounded up).
    pub ram_bytes: u64,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct CatalogFile {
    /// Notes for people editing the file; ignored.
    #[serde(default)]
    #[allow(dead_code)]
    about: Vec<String>,
    models: Vec<CatalogEntry>,
}

/// A loaded, checked catalogue.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Catalog {
    /// Where it came from: `shipped`, a path or a URL.
    pub source: String,
    pub models: Vec<CatalogEntry>,
}

impl Catalog {
    /// The catalogue shipped with the app.
    pub fn shipped() -> Result<Catalog, ModelsError> {
        Self::parse(SHIPPED, "shipped")
    }

    /// The catalogue at `location` (a path or an http(s) URL), or the shipped one when
    /// `None`.
    pub async fn load(
        location: Option<&str>,
        client: &reqwest::Client,
    ) -> Result<Catalog, ModelsError> {
        let Some(location) = location.map(str::trim).filter(|l| !l.is_empty()) else {
            return Self::shipped();
        };
        let shown = crate::shown::shown_url(location);
        let text = if location.starts_with("http://") || location.starts_with("https://") {
            fetch(location, &shown, client).await?
        } else {
            read(Path::new(location))?
        };
        Self::parse(&text, &shown)
    }

    /// Parse and check a catalogue's text; `source` names it in errors.
    pub fn parse(text: &str, source: &str) -> Result<Catalog, ModelsError> {
        let err = |message: String| ModelsError::Catalog { source_name: source.into(), message };
        let file: CatalogFile = serde_json::from_str(text).map_err(|e| {
            err(format!(
                "invalid JSON at line {}, column {}: {e} (docs/models.md describes the format)",
                e.line(),
                e.column()
            ))
        })?;
        let mut seen = HashSet::new();
        for (i, entry) in file.models.iter().enumerate() {
            let at = format!("models[{i}] (\"{}\")", entry.id);
            check_id(&entry.id).map_err(|e| err(format!("{at}: {e}")))?;
            if !seen.insert(entry.id.as_str()) {
                return Err(err(format!("{at}: the id is listed twice")));
            }
            if entry.name.trim().is_empty() {
                return Err(err(format!("{at}: \"name\" is empty")));
            }
            let url_ok = url::Url::parse(&entry.url)
                .is_ok_and(|u| matches!(u.scheme(), "http" | "https") && u.has_host());
            if !url_ok {
                return Err(err(format!(
                    "{at}: \"url\" {:?} must be an absolute http:// or https:// URL",
                    entry.url
                )));
            }
            if !is_sha256(&entry.sha256) {
                return Err(err(format!(
                    "{at}: \"sha256\" must be 64 lowercase hex digits, got {:?}",
                    entry.sha256
                )));
            }
            if entry.size_bytes == 0 {
                return Err(err(format!("{at}: \"size_bytes\" must be the file's size, not 0")));
            }
            if entry.context_length == 0 {
                return Err(err(format!("{at}: \"context_length\" must be above 0")));
            }
        }
        Ok(Catalog { source: source.to_string(), models: file.models })
    }

    /// The entry `id`, or an error listing the ids there are.
    pub fn find(&self, id: &str) -> Result<&CatalogEntry, ModelsError> {
        self.models.iter().find(|m| m.id == id).ok_or_else(|| ModelsError::UnknownModel {
            id: id.to_string(),
            source_name: self.source.clone(),
            known: self.models.iter().map(|m| m.id.as_str()).collect::<Vec<_>>().join(", "),
        })
    }
}

/// Whether `s` is a lowercase hex SHA-256.
pub(crate) fn is_sha256(s: &str) -> bool {
    s.len() == 64 && s.bytes().all(|b| b.is_ascii_digit() || (b'a'..=b'f').contains(&b))
}

fn read(path: &Path) -> Result<String, ModelsError> {
    let err =
        |message: String| ModelsError::Catalog { source_name: path.display().to_string(), message };
    let meta = std::fs::metadata(path).map_err(|e| {
        err(format!("cannot read it: {e} (check the models.catalog setting or {CATALOG_ENV})"))
    })?;
    if meta.len() > CATALOG_CAP {
        return Err(err(format!("it is {} bytes, more than a catalogue may be", meta.len())));
    }
    std::fs::read_to_string(path).map_err(|e| err(format!("cannot read it: {e}")))
}

async fn fetch(url: &str, shown: &str, client: &reqwest::Client) -> Result<String, ModelsError> {
    let err = |message: String| ModelsError::Catalog { source_name: shown.into(), message };
    let cannot = |e: reqwest::Error| {
        err(format!("cannot fetch it: {}", crate::shown::without(&e.to_string(), url, shown)))
    };
    let response = client.get(url).send().await.map_err(cannot)?;
    if !response.status().is_success() {
        return Err(err(format!("the server answered HTTP {}", response.status().as_u16())));
    }
    if response.content_length().is_some_and(|n| n > CATALOG_CAP) {
        return Err(err("it is larger than a catalogue may be".into()));
    }
    let bytes = response.bytes().await.map_err(cannot)?;
    if bytes.len() as u64 > CATALOG_CAP {
        return Err(err("it is larger than a catalogue may be".into()));
    }
    String::from_utf8(bytes.to_vec()).map_err(|_| err("it is not UTF-8 text".into()))
}

#[cfg(test)]
#[path = "catalog_tests.rs"]
mod tests;
