//! Skill commands: `list_skills`, `show_skill`, `check_skills`, `new_skill`, `reload_skills`
//! and `match_cases`, over the app's registry (its roots come from the settings and the
//! overrides' extra folder). Discovery, checking and scaffolding are `vibe_skills`'s; this
//! file calls them and answers wire DTOs.

use std::path::{Path, PathBuf};

use vibe_skills::{Problem, ResourceKind, RootKind, Severity, Shadowed, check_path, new_skill};
use vibe_wire::command::{
    CaseMatchView, CaseMatches, CheckSkillsRequest, CheckedSkillView, MatchCasesRequest,
    NewSkillRequest, NewSkillResponse, ShowSkillRequest, SkillCheckProblem, SkillCheckReport,
    SkillDetail, SkillList, SkillParts, SkillProblemSeverity, SkillProblemView, SkillResourceKind,
    SkillResourceView, SkillRootKind, SkillRootView, SkillShadow, SkillSummary, SkillText,
    SkillsReloaded,
};

use crate::app::{App, AppError};

impl App {
    /// `list_skills`: every skill (broken folders too, `valid: false`), sorted by name, with
    /// the roots searched and their problems.
    pub fn list_skills(&self) -> SkillList {
        let registry = self.skills();
        let mut skills: Vec<SkillSummary> = registry
            .skills()
            .into_iter()
            .map(|e| {
                let mut problems = e.problems.clone();
                problems.extend(self.missing_connections(&e.dir));
                SkillSummary {
                    name: e.name,
                    description: Some(e.meta.description.clone()),
                    root: root_kind(e.root),
                    dir: path(&e.dir),
                    shadows: shadows(&e.shadows),
                    valid: e.valid,
                    problems: strings(&problems),
                    findings: findings(&problems),
                }
            })
            .collect();
        skills.extend(registry.broken().into_iter().map(|b| SkillSummary {
            name: b.name,
            description: None,
            root: root_kind(b.root),
            dir: path(&b.dir),
            shadows: Vec::new(),
            valid: false,
            problems: strings(&b.problems),
            findings: findings(&b.problems),
        }));
        skills.sort_by(|a, b| a.name.cmp(&b.name));
        SkillList {
            skills,
            roots: registry
                .roots()
                .iter()
                .map(|r| SkillRootView { kind: root_kind(r.kind), path: path(&r.path) })
                .collect(),
            warnings: strings(&registry.root_problems()),
        }
    }

    /// `match_cases`: the skill's cases that best match the message, best first.
    pub fn match_cases(&self, request: &MatchCasesRequest) -> Result<CaseMatches, AppError> {
        let found =
            self.skills().match_cases(&request.skill, &request.message, request.top as usize)?;
        Ok(CaseMatches {
            skill: request.skill.clone(),
            message: request.message.clone(),
            matches: found
                .into_iter()
                .map(|m| CaseMatchView {
                    id: m.case.id.clone(),
                    title: m.case.title.clone(),
                    keywords: m.case.keywords.clone(),
                    score: m.score,
                    matched: m.matched,
                })
                .collect(),
        })
    }

    /// `show_skill`: metadata, the parts it has and its files.
    pub fn show_skill(&self, request: &ShowSkillRequest) -> Result<SkillDetail, AppError> {
        let registry = self.skills();
        let name = &request.name;
        let entry = registry.skill(name)?;
        let parts = registry.parts(name)?;
        let prompts = registry.prompts(name)?;
        let texts = |list: &[vibe_skills::LocalText]| -> Vec<SkillText> {
            list.iter().map(|t| SkillText { zh: t.zh.clone(), en: t.en.clone() }).collect()
        };
        Ok(SkillDetail {
            name: entry.name.clone(),
            root: root_kind(entry.root),
            dir: path(&entry.dir),
            valid: entry.valid,
            shadows: shadows(&entry.shadows),
            meta: serde_json::to_value(&*entry.meta).unwrap_or_default(),
            parts: SkillParts {
                rules: parts.rules,
                scenarios: parts.scenarios,
                cases: parts.cases,
                tools: parts.tools,
                protocols: parts.protocols,
                daily_prompts: prompts.as_deref().map(|p| texts(&p.daily)).unwrap_or_default(),
                starters: prompts.as_deref().map(|p| texts(&p.starters)).unwrap_or_default(),
            },
            resources: registry
                .resources(name)?
                .into_iter()
                .map(|r| SkillResourceView {
                    path: r.path,
                    bytes: r.bytes,
                    kind: match r.kind {
                        ResourceKind::Script => SkillResourceKind::Script,
                        ResourceKind::Reference => SkillResourceKind::Reference,
                        ResourceKind::Asset => SkillResourceKind::Asset,
                        ResourceKind::Part => SkillResourceKind::Part,
                        ResourceKind::Other => SkillResourceKind::Other,
                    },
                })
                .collect(),
            problems: strings(&entry.problems),
            findings: findings(&entry.problems),
        })
    }

    /// `check_skills`: every file of the given folders (each a skill folder or a folder of
    /// skills), or of the registry's roots that exist when none is given. `ok` is false on
    /// any error.
    pub fn check_skills(&self, request: &CheckSkillsRequest) -> SkillCheckReport {
        let dirs: Vec<PathBuf> = if request.dirs.is_empty() {
            self.skills().roots().iter().map(|r| r.path.clone()).filter(|p| p.is_dir()).collect()
        } else {
            request.dirs.iter().map(PathBuf::from).collect()
        };
        let (mut skills, mut problems) = (Vec::new(), Vec::new());
        for dir in &dirs {
            let report = check_path(dir);
            for skill in &report.skills {
                problems.extend(self.missing_connections(&skill.dir));
            }
            skills.extend(report.skills.into_iter().map(|s| CheckedSkillView {
                name: s.name,
                dir: path(&s.dir),
                valid: s.valid,
            }));
            problems.extend(report.problems);
        }
        let errors = problems.iter().filter(|p| p.is_error()).count();
        let count = |n: usize| u32::try_from(n).unwrap_or(u32::MAX);
        SkillCheckReport {
            ok: errors == 0,
            dirs: dirs.iter().map(|d| path(d)).collect(),
            skills,
            errors: count(errors),
            warnings: count(problems.len() - errors),
            problems: problems.iter().map(check_problem).collect(),
        }
    }

    /// A warning for each `mcp: SERVER/TOOL` of the skill in `dir` whose server is not
    /// configured (docs/mcp.md, "For skill authors"): reported here, never at run time.
    fn missing_connections(&self, dir: &Path) -> Vec<Problem> {
        let settings = self.settings();
        vibe_skills::declared_mcp_tools(dir)
            .into_iter()
            .filter(|m| !settings.mcp.servers.contains_key(&m.server))
            .map(|m| {
                Problem::warning(
                    &dir.join("tools.yaml"),
                    vibe_skills::Pos::new(m.line, 1),
                    format!(
                        "`{}`: no connection is named {}; the skill goes without this tool \
                         until one is added (`vibe mcp add {} …`)",
                        m.name, m.server, m.server
                    ),
                )
            })
            .collect()
    }

    /// `new_skill`: a folder with a valid SKILL.md in the person's skills folder.
    pub fn new_skill(&self, request: &NewSkillRequest) -> Result<NewSkillResponse, AppError> {
        let registry = self.skills();
        let root = registry
            .roots()
            .iter()
            .find(|r| r.kind == RootKind::User)
            .map(|r| r.path.clone())
            .ok_or_else(|| AppError::InvalidInput("no user skills folder is configured".into()))?;
        let dir = new_skill(&root, &request.name)?;
        Ok(NewSkillResponse {
            name: request.name.clone(),
            file: path(&dir.join(vibe_skills::SKILL_FILE)),
            dir: path(&dir),
        })
    }

    /// `reload_skills`: read the skill folders again now (edits are also picked up before
    /// every turn); what changed since the last read.
    pub fn reload_skills(&self) -> SkillsReloaded {
        SkillsReloaded { changes: self.skills().refresh() }
    }
}

fn root_kind(kind: RootKind) -> SkillRootKind {
    match kind {
        RootKind::Project => SkillRootKind::Project,
        RootKind::User => SkillRootKind::User,
        RootKind::Builtin => SkillRootKind::Builtin,
    }
}

fn path(p: &Path) -> String {
    p.display().to_string()
}

fn shadows(list: &[Shadowed]) -> Vec<SkillShadow> {
    list.iter().map(|s| SkillShadow { root: root_kind(s.root), dir: path(&s.dir) }).collect()
}

fn strings(problems: &[Problem]) -> Vec<String> {
    problems.iter().map(ToString::to_string).collect()
}

/// The findings as data (kind and parameters), for a front end to word them.
fn findings(problems: &[Problem]) -> Vec<SkillProblemView> {
    let at = |n: usize| u32::try_from(n).unwrap_or(u32::MAX);
    problems
        .iter()
        .map(|p| SkillProblemView {
            path: path(&p.path),
            line: at(p.line),
            col: at(p.col),
            severity: severity(p),
            code: p.code.clone(),
            message: p.message.clone(),
        })
        .collect()
}

fn check_problem(p: &Problem) -> SkillCheckProblem {
    let at = |n: usize| u32::try_from(n).unwrap_or(u32::MAX);
    SkillCheckProblem {
        path: path(&p.path),
        line: at(p.line),
        col: at(p.col),
        severity: severity(p),
        message: p.message.clone(),
        text: p.to_string(),
    }
}

fn severity(p: &Problem) -> SkillProblemSeverity {
    match p.severity {
        Severity::Warning => SkillProblemSeverity::Warning,
        Severity::Error => SkillProblemSeverity::Error,
    }
}
