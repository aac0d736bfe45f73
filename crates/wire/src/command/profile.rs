//! The profile document (get, set a path, import) and a skill's saved state.

use serde::{Deserialize, Serialize};
use serde_json::Value;

/// `get_profile`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct ProfileView {
    pub profile: Value,
}

/// `set_profile_path`: set one dotted path (`birth_info.date`) to a JSON value.
/// Answers the whole profile.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct SetProfilePathRequest {
    pub path: String,
    pub value: Value,
}

/// `import_profile`: replace the profile with a document (legacy shapes are migrated).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct ImportProfileRequest {
    pub profile: Value,
}

/// `skill_state`: a skill's saved state (one section, or all).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct SkillStateRequest {
    pub skill: String,
    #[serde(default)]
    pub section: Option<String>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct SkillStateView {
    pub skill: String,
    pub section: Option<String>,
    pub state: Value,
}
