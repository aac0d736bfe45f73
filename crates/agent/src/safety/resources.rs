//! Crisis resources (`data/safety/resources.yaml`): emergency numbers and hotlines per
//! region, and the lookup from a locale tag (`zh-HK`, `en_GB.UTF-8`, `zh-Hant-TW`) to a
//! region, falling back to `generic`.

use serde::{Deserialize, Serialize};

use super::error::SafetyError;

/// One number (or web page) to reach.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Contact {
    pub name: String,
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub number: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub hours: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub url: Option<String>,
}

/// The resources of one region.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Region {
    pub id: String,
    pub name: String,
    #[serde(default)]
    pub locales: Vec<String>,
    pub emergency: Vec<Contact>,
    pub hotlines: Vec<Contact>,
}

/// All regions, validated: ids unique, each with an emergency number and a hotline, and a
/// `generic` region for every locale no other region claims.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CrisisResources {
    pub regions: Vec<Region>,
}

impl Region {
    /// What every region needs (the built-in file and an override alike): an emergency
    /// number, a hotline, and a number or url for each contact.
    pub(super) fn check(&self) -> Result<(), String> {
        if !self.emergency.iter().any(|c| !c.number.trim().is_empty()) {
            return Err(format!("region \"{}\" has no emergency number", self.id));
        }
        if self.hotlines.is_empty() {
            return Err(format!("region \"{}\" has no hotline", self.id));
        }
        for contact in self.emergency.iter().chain(&self.hotlines) {
            if contact.number.trim().is_empty() && contact.url.is_none() {
                return Err(format!(
                    "region \"{}\": \"{}\" has neither a number nor a url",
                    self.id, contact.name
                ));
            }
        }
        Ok(())
    }
}

/// The id of the fallback region.
pub const GENERIC: &str = "generic";

impl CrisisResources {
    /// Parse and validate a resources file. `file` names it in error messages.
    pub fn parse(yaml: &str, file: &str) -> Result<CrisisResources, SafetyError> {
        let format = |message: String| SafetyError::Format { file: file.to_string(), message };
        let parsed: CrisisResources =
            serde_yaml_ng::from_str(yaml).map_err(|e| format(e.to_string()))?;
        let mut ids = std::collections::HashSet::new();
        for region in &parsed.regions {
            if !ids.insert(region.id.as_str()) {
                return Err(format(format!("region \"{}\" is listed twice", region.id)));
            }
            region.check().map_err(format)?;
        }
        if !ids.contains(GENERIC) {
            return Err(format(format!(
                "no \"{GENERIC}\" region (the fallback for other locales)"
            )));
        }
        Ok(parsed)
    }

    /// The region for a locale tag. Matching is case-insensitive, `_` equals `-`, an encoding
    /// suffix (`.UTF-8`) is ignored, and the longest listed tag that is a prefix of the
    /// locale (at a `-` boundary) wins; no match gives `generic`.
    pub fn for_locale(&self, locale: &str) -> &Region {
        let tag =
            locale.split(['.', '@']).next().unwrap_or("").trim().to_lowercase().replace('_', "-");
        let mut best: Option<(&Region, usize)> = None;
        for region in &self.regions {
            for listed in &region.locales {
                let fits = tag == *listed
                    || (tag.starts_with(listed.as_str()) && tag[listed.len()..].starts_with('-'));
                if fits && best.is_none_or(|(_, len)| listed.len() > len) {
                    best = Some((region, listed.len()));
                }
            }
        }
        match best {
            Some((region, _)) => region,
            None => self.generic(),
        }
    }

    fn generic(&self) -> &Region {
        // `parse` guarantees the generic region exists; the first region is a safe stand-in.
        self.regions.iter().find(|r| r.id == GENERIC).unwrap_or(&self.regions[0])
    }
}
