//! Running a scenario through the chat service with the scripted model in a temporary data
//! dir, turn by turn, and collecting the scores.

use std::path::Path;
use std::sync::Arc;

use serde::Serialize;
use tokio_util::sync::CancellationToken;
use vibe_llm::ScriptedModel;
use vibe_skills::{Registry, RegistryConfig, SkillsSettings};
use vibe_store::{LOCAL_USER, Store};

use crate::CoreError;
use crate::agent::{ApprovalPolicy, Approver};
use crate::chat::{ChatConfig, ChatService, TurnRequest};
use crate::emit::{CollectSink, EventSink};
use crate::eval::scenario::Scenario;
use crate::eval::score::{Check, Observed, score_turn};

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct TurnReport {
    pub user: String,
    pub observed: Observed,
    pub checks: Vec<Check>,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct EvalReport {
    pub name: String,
    pub turns: Vec<TurnReport>,
    pub passed: usize,
    pub total: usize,
    /// passed / total (1.0 when there is nothing to check).
    pub score: f64,
}

impl EvalReport {
    pub fn ok(&self) -> bool {
        self.passed == self.total
    }
}

/// Run `scenario` (whose file is at `source`, for relative paths).
pub async fn run_eval(scenario: &Scenario, source: &Path) -> Result<EvalReport, CoreError> {
    let dir = tempfile::tempdir().map_err(|err| CoreError::AuditIo {
        action: "create a temporary data dir in",
        path: std::env::temp_dir(),
        err,
    })?;
    let store = Arc::new(Store::open(&dir.path().join("vibe.db"))?);
    for (path, value) in &scenario.profile {
        store.set_path(LOCAL_USER, path, value.clone())?;
    }
    let project =
        scenario.skills_dir.as_ref().map(|d| source.parent().unwrap_or(Path::new(".")).join(d));
    let config = RegistryConfig::for_data_dir(dir.path(), &SkillsSettings::default(), project);
    let skills = Arc::new(Registry::open(config));
    let script = serde_yaml_ng::to_string(&scenario.model)
        .map_err(|e| CoreError::InvalidRequest(format!("{}: model: {e}", source.display())))?;
    let model = ScriptedModel::from_yaml(&script, &format!("{} (model)", source.display()))
        .map_err(|e| CoreError::InvalidRequest(e.to_string()))?;
    let chat_config = ChatConfig {
        budgets: scenario.budgets.unwrap_or_default(),
        seed: scenario.seed,
        ..ChatConfig::default()
    };
    let service = ChatService::new(
        store.clone(),
        skills,
        Arc::new(model),
        Some(dir.path().to_path_buf()),
        chat_config,
    )?;
    let approver: Arc<dyn Approver> = match scenario.approve.as_deref() {
        Some("all") => Arc::new(ApprovalPolicy::ApproveAll),
        _ => Arc::new(ApprovalPolicy::DenyAll),
    };
    let mut conversation = None;
    let mut turns = Vec::new();
    for turn in &scenario.turns {
        let sink = Arc::new(CollectSink::default());
        let sinks: Vec<Arc<dyn EventSink>> = vec![sink.clone()];
        let request = TurnRequest {
            conversation_id: conversation.clone(),
            message: turn.user.clone(),
            skill: turn.skill.clone(),
            ..TurnRequest::default()
        };
        let result =
            service.run_turn(request, sinks, approver.clone(), CancellationToken::new()).await?;
        conversation = Some(result.conversation_id.clone());
        let active = store.conversation(&result.conversation_id)?.skill;
        let profile = store.profile(LOCAL_USER)?;
        let (observed, checks) =
            score_turn(&turn.expect, &sink.events(), active.as_deref(), &profile);
        turns.push(TurnReport { user: turn.user.clone(), observed, checks });
    }
    let total = turns.iter().map(|t| t.checks.len()).sum();
    let passed = turns.iter().flat_map(|t| &t.checks).filter(|c| c.passed).count();
    let score = if total == 0 { 1.0 } else { passed as f64 / total as f64 };
    Ok(EvalReport { name: scenario.name.clone(), turns, passed, total, score })
}
