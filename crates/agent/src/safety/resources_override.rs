//! The person's own crisis resources: `<data folder>/safety/resources.yaml`, in the format of
//! the built-in file, overrides regions per locale. A region with the id of a built-in one
//! replaces it (serving the built-in one's locales unless it lists its own); a new id adds a
//! region for the locales it lists (and wins a tie with a
//! built-in region listing the same tag). The file is validated whole, each problem named as
//! `path:line`; a file that cannot be used changes nothing (the built-in resources stand).
//! Showing the resources is the chat's job, not this file's.

use std::path::{Path, PathBuf};

use super::error::SafetyError;
use super::resources::{CrisisResources, Region};

/// Where the override lives inside a data folder.
pub const OVERRIDE_FILE: &str = "safety/resources.yaml";

/// The override file of `data_dir`.
pub fn override_path(data_dir: &Path) -> PathBuf {
    data_dir.join(OVERRIDE_FILE)
}

impl CrisisResources {
    /// `self` with the override `text` (read from `path`) applied, or the first problem of
    /// the override as `path:line: message`.
    pub fn with_override(&self, text: &str, path: &str) -> Result<CrisisResources, SafetyError> {
        let error = |line: usize, message: String| SafetyError::Resources {
            path: path.to_string(),
            line,
            message,
        };
        let parsed: CrisisResources = serde_yaml_ng::from_str(text).map_err(|e| {
            let line = e.location().map_or(1, |l| l.line());
            error(line, e.to_string())
        })?;
        if parsed.regions.is_empty() {
            return Err(error(1, "no regions; list at least one under `regions:`".into()));
        }
        let mut ids = std::collections::HashSet::new();
        for region in &parsed.regions {
            let line = line_of_region(text, &region.id);
            if region.id.trim().is_empty() {
                return Err(error(line, "a region has an empty id".into()));
            }
            if !ids.insert(region.id.as_str()) {
                return Err(error(line, format!("region \"{}\" is listed twice", region.id)));
            }
            let replaces = self.regions.iter().any(|r| r.id == region.id);
            if region.locales.is_empty() && !replaces {
                return Err(error(
                    line,
                    format!(
                        "region \"{}\" lists no locales and replaces no built-in region (built-in ids: {}); add e.g. `locales: [de-de]`",
                        region.id,
                        self.regions.iter().map(|r| r.id.as_str()).collect::<Vec<_>>().join(", ")
                    ),
                ));
            }
            if let Some(bad) = region.locales.iter().find(|l| !is_locale_tag(l)) {
                return Err(error(
                    line,
                    format!(
                        "region \"{}\": locale \"{bad}\" is not a lower-case tag like zh-cn or en-gb",
                        region.id
                    ),
                ));
            }
            region.check().map_err(|message| error(line, message))?;
        }
        // A replacing region without locales of its own serves the built-in one's.
        let mut regions: Vec<Region> = parsed
            .regions
            .iter()
            .map(|region| match self.regions.iter().find(|r| r.id == region.id) {
                Some(builtin) if region.locales.is_empty() => {
                    Region { locales: builtin.locales.clone(), ..region.clone() }
                }
                _ => region.clone(),
            })
            .collect();
        regions.extend(self.regions.iter().filter(|r| !ids.contains(r.id.as_str())).cloned());
        Ok(CrisisResources { regions })
    }

    /// The built-in resources with `data_dir`'s override applied when there is one. A file
    /// that cannot be read or used leaves the built-in resources, with the reason.
    pub fn for_data_dir(
        builtin: &CrisisResources,
        data_dir: Option<&Path>,
    ) -> (CrisisResources, Option<SafetyError>) {
        let Some(path) = data_dir.map(override_path).filter(|p| p.exists()) else {
            return (builtin.clone(), None);
        };
        let shown = path.display().to_string();
        let text = match crate::input::read_text(&path, "crisis resources", 1 << 20) {
            Ok(text) => text,
            Err(e) => {
                let error = SafetyError::Resources { path: shown, line: 1, message: e.to_string() };
                return (builtin.clone(), Some(error));
            }
        };
        match builtin.with_override(&text, &shown) {
            Ok(merged) => (merged, None),
            Err(e) => (builtin.clone(), Some(e)),
        }
    }
}

/// A lower-case BCP 47-like tag: letters and digits in parts joined by `-`.
fn is_locale_tag(tag: &str) -> bool {
    !tag.is_empty()
        && tag.split('-').all(|part| {
            !part.is_empty() && part.chars().all(|c| c.is_ascii_lowercase() || c.is_ascii_digit())
        })
}

/// The 1-based line where region `id` is declared (`id: <id>`, also in a flow mapping), else 1.
fn line_of_region(text: &str, id: &str) -> usize {
    text.lines()
        .position(|line| {
            line.split_once("id:").is_some_and(|(_, rest)| {
                let value = rest.split([',', '}', '#']).next().unwrap_or("");
                value.trim().trim_matches(['"', '\'']) == id
            })
        })
        .map_or(1, |i| i + 1)
}
