//! Running a scenario through the app ([`App`], opened over a temporary data dir with the
//! scripted model), turn by turn, and collecting the scores. Reading the scenario and scoring a
//! turn are `crate::eval`'s (below the app); answering `run_eval` is `eval.rs`'s.

use std::path::Path;
use std::sync::Arc;

use serde::Serialize;
use tokio_util::sync::CancellationToken;
use vibe_llm::ScriptedModel;
use vibe_wire::command::{SendMessageRequest, SetProfilePathRequest};

use crate::app::{App, AppError, AppPaths, EphemeralKeys, Injections, Overrides};
use crate::eval::{Check, Observed, Scenario, score_turn};
use vibe_agent::agent::{ApprovalPolicy, Approver};
use vibe_runlog::emit::{CollectSink, EventSink};

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

/// Run `scenario` (whose file is at `source`, for relative paths).
pub async fn run_eval(scenario: &Scenario, source: &Path) -> Result<EvalReport, AppError> {
    let dir = tempfile::tempdir().map_err(|err| vibe_runlog::RunLogError::AuditIo {
        action: "create a temporary data dir in",
        path: std::env::temp_dir(),
        err,
    })?;
    let project =
        scenario.skills_dir.as_ref().map(|d| source.parent().unwrap_or(Path::new(".")).join(d));
    let script = serde_yaml_ng::to_string(&scenario.model)
        .map_err(|e| AppError::InvalidInput(format!("{}: model: {e}", source.display())))?;
    let model = ScriptedModel::from_yaml(&script, &format!("{} (model)", source.display()))
        .map_err(|e| AppError::InvalidInput(e.to_string()))?;
    let overrides = Overrides { seed: scenario.seed, skills_dir: project, ..Overrides::default() };
    let injections = Injections {
        model: Some(Arc::new(model)),
        budgets: Some(scenario.budgets.unwrap_or_default()),
        ..Injections::default()
    };
    // A throw-away data dir: encrypted as the app's default, its key kept in memory.
    let app = App::open_with_injections(
        AppPaths::new(dir.path()),
        overrides,
        Arc::new(EphemeralKeys::default()),
        injections,
    )?;
    for (path, value) in &scenario.profile {
        app.set_profile_path(&SetProfilePathRequest { path: path.clone(), value: value.clone() })?;
    }
    let approver: Arc<dyn Approver> = match scenario.approve.as_deref() {
        Some("all") => Arc::new(ApprovalPolicy::ApproveAll),
        _ => Arc::new(ApprovalPolicy::DenyAll),
    };
    let mut conversation = None;
    let mut turns = Vec::new();
    for turn in &scenario.turns {
        let sink = Arc::new(CollectSink::default());
        let sinks: Vec<Arc<dyn EventSink>> = vec![sink.clone()];
        let mut request = SendMessageRequest::say(conversation.clone(), turn.user.clone());
        request.skill = turn.skill.clone();
        let result = app
            .send_message_with(request, sinks, approver.clone(), CancellationToken::new())
            .await?;
        // Memory passes the reply made due run after it: done before the turn is scored and
        // the next one sent (the scripted model answers in order).
        app.settle().await;
        conversation = Some(result.conversation_id.clone());
        let id = result.conversation_id.clone();
        let active = app.store().conversation(&id)?.skill;
        let profile = app.get_profile()?.profile;
        let (observed, checks) =
            score_turn(&turn.expect, &sink.events(), active.as_deref(), &profile);
        turns.push(TurnReport { user: turn.user.clone(), observed, checks });
    }
    let total = turns.iter().map(|t| t.checks.len()).sum();
    let passed = turns.iter().flat_map(|t| &t.checks).filter(|c| c.passed).count();
    let score = if total == 0 { 1.0 } else { passed as f64 / total as f64 };
    Ok(EvalReport { name: scenario.name.clone(), turns, passed, total, score })
}
