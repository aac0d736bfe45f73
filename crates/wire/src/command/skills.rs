//! Skill commands: list, show, check, create, reload, and which cases match a message.

use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::skill_problem::{SkillProblemSeverity, SkillProblemView};
use crate::SkillsChange;

/// Where a skill folder comes from; the order is the precedence (first wins).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
#[serde(rename_all = "snake_case")]
pub enum SkillRootKind {
    /// An extra folder (settings `skills.extra_dir`, or a front end's own).
    Project,
    /// The person's own skills, in the data folder.
    User,
    /// The skills shipped with the app.
    Builtin,
}

/// One root folder searched for skills.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct SkillRootView {
    pub kind: SkillRootKind,
    pub path: String,
}

/// A skill of the same name in a lower root, hidden by this one.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct SkillShadow {
    pub root: SkillRootKind,
    pub dir: String,
}

/// One skill in a list (broken folders are listed too, `valid: false`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct SkillSummary {
    pub name: String,
    pub description: Option<String>,
    pub root: SkillRootKind,
    pub dir: String,
    /// Folders of the same name in lower roots that this one hides.
    pub shadows: Vec<SkillShadow>,
    pub valid: bool,
    /// `path:line:col: severity: message`.
    pub problems: Vec<String>,
    /// The same findings as data, for a front end to word in its language.
    #[serde(default)]
    pub findings: Vec<SkillProblemView>,
}

/// `list_skills`, sorted by name.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct SkillList {
    pub skills: Vec<SkillSummary>,
    /// The roots searched, highest precedence first.
    pub roots: Vec<SkillRootView>,
    /// Problems with the roots themselves.
    pub warnings: Vec<String>,
}

/// `show_skill`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct ShowSkillRequest {
    pub name: String,
}

/// Which optional parts a skill has (ids are file stems).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct SkillParts {
    pub rules: Vec<String>,
    pub scenarios: Vec<String>,
    pub cases: Vec<String>,
    /// Whether it has a `tools.yaml`.
    pub tools: bool,
    pub protocols: Vec<String>,
    /// `prompts.yaml`'s daily journaling questions, in file order (none without the file).
    #[serde(default)]
    pub daily_prompts: Vec<SkillText>,
    /// `prompts.yaml`'s conversation starters, in file order.
    #[serde(default)]
    pub starters: Vec<SkillText>,
}

/// A text a skill author wrote in Chinese, with its English version when they wrote one.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct SkillText {
    pub zh: String,
    pub en: Option<String>,
}

/// What a file in a skill folder is for.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
#[serde(rename_all = "snake_case")]
pub enum SkillResourceKind {
    Script,
    Reference,
    Asset,
    Part,
    Other,
}

/// A file of a skill folder, as listed (not read).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct SkillResourceView {
    /// Relative to the skill folder, `/`-separated.
    pub path: String,
    pub bytes: u64,
    pub kind: SkillResourceKind,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct SkillDetail {
    pub name: String,
    pub root: SkillRootKind,
    pub dir: String,
    pub valid: bool,
    pub shadows: Vec<SkillShadow>,
    /// The SKILL.md front matter as parsed (an author's document: its optional fields grow
    /// with the skill format, so it stays JSON).
    pub meta: Value,
    pub parts: SkillParts,
    pub resources: Vec<SkillResourceView>,
    pub problems: Vec<String>,
    /// The same findings as data, for a front end to word in its language.
    #[serde(default)]
    pub findings: Vec<SkillProblemView>,
}

/// `check_skills`: the given folders, or the configured roots when none.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct CheckSkillsRequest {
    #[serde(default)]
    pub dirs: Vec<String>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct SkillCheckProblem {
    pub path: String,
    pub line: u32,
    pub col: u32,
    pub severity: SkillProblemSeverity,
    pub message: String,
    /// `path:line:col: severity: message`.
    pub text: String,
}

/// A skill folder a check found.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct CheckedSkillView {
    /// The folder name.
    pub name: String,
    pub dir: String,
    /// No error in its files.
    pub valid: bool,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct SkillCheckReport {
    pub ok: bool,
    pub dirs: Vec<String>,
    pub skills: Vec<CheckedSkillView>,
    pub errors: u32,
    pub warnings: u32,
    pub problems: Vec<SkillCheckProblem>,
}

/// `new_skill`: a valid SKILL.md in the user skills folder.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct NewSkillRequest {
    pub name: String,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct NewSkillResponse {
    pub name: String,
    pub dir: String,
    pub file: String,
}

/// `reload_skills`: read the skill folders again now; what changed since the last read.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct SkillsReloaded {
    pub changes: Vec<SkillsChange>,
}

/// `match_cases`: the cases of a skill that best match a message (for authors tuning
/// keywords).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct MatchCasesRequest {
    pub skill: String,
    pub message: String,
    /// How many cases at most.
    pub top: u32,
}

/// One matching case, best first.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct CaseMatchView {
    /// The case file's stem.
    pub id: String,
    pub title: String,
    pub keywords: Vec<String>,
    /// Higher is better (BM25).
    pub score: f64,
    /// Terms of the message found in the case as written.
    pub matched: Vec<String>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct CaseMatches {
    pub skill: String,
    pub message: String,
    pub matches: Vec<CaseMatchView>,
}
