//! The TypeScript types of this crate for the UI (`ui/src/wire/`), generated with ts-rs and
//! committed. The test below regenerates them into a temporary folder and fails when the
//! committed files differ; `scripts/gen-wire-ts.sh` (which sets `VIBE_WRITE_TS=1`) rewrites
//! them. Only the derives live on the types (as `cfg_attr(test, ...)`, so non-test builds
//! carry no ts-rs); which roots are exported and how files are compared belongs here. The
//! requests and responses of the command list, and `Commands.ts`, come from `command_map`.

use std::collections::BTreeMap;
use std::fs;
use std::path::{Path, PathBuf};

use ts_rs::{Config, TS};

use crate::command as cmd;
use crate::{
    ApprovalSource, DisplayKind, ErrorKind, PlanStepStatus, ProtocolChoice, RunStatus,
    SafetyCategory, SafetyRisk, ToolMode, VoiceMode,
};
use crate::{Envelope, ErrorInfo, Event, Phase, Plan, PlanStep, SectionTokens, SkillsChange};
use crate::{ProtocolAction, SafetyResource, SkillsChangeKind, StopReason, SummaryBy, TokenUsage};

/// The command that rewrites the committed bindings.
const REGENERATE: &str = "bash scripts/gen-wire-ts.sh";

fn committed_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../ui/src/wire")
}

/// Writes every exported type (and what it refers to) into `dir`, plus an `index.ts` that
/// re-exports them all.
fn generate(dir: &Path) -> Result<(), String> {
    // JSON numbers: u64 counters stay far below 2^53, and serde_json writes them as numbers.
    let cfg = Config::new().with_large_int("number").with_out_dir(dir);
    let results = [
        Envelope::export_all(&cfg),
        Event::export_all(&cfg),
        ErrorInfo::export_all(&cfg),
        Phase::export_all(&cfg),
        Plan::export_all(&cfg),
        PlanStep::export_all(&cfg),
        ProtocolAction::export_all(&cfg),
        SafetyResource::export_all(&cfg),
        SectionTokens::export_all(&cfg),
        SkillsChange::export_all(&cfg),
        SkillsChangeKind::export_all(&cfg),
        StopReason::export_all(&cfg),
        SummaryBy::export_all(&cfg),
        TokenUsage::export_all(&cfg),
        // Command types the command list (command/list.rs, exported by `command_map`) does not
        // reach: the CLI's requests and responses, and what a request nests.
        cmd::TurnInput::export_all(&cfg),
        cmd::ChatMessage::export_all(&cfg),
        cmd::MessageRole::export_all(&cfg),
        cmd::ModelView::export_all(&cfg),
        cmd::PresetView::export_all(&cfg),
        cmd::ProbeRequest::export_all(&cfg),
        cmd::ProbeResponse::export_all(&cfg),
        cmd::ProbeDetect::export_all(&cfg),
        cmd::ProbeError::export_all(&cfg),
        cmd::MatchCasesRequest::export_all(&cfg),
        cmd::CaseMatches::export_all(&cfg),
        cmd::ToolCallView::export_all(&cfg),
        cmd::CommandError::export_all(&cfg),
        cmd::ChangeSource::export_all(&cfg),
        cmd::HistoryTargetView::export_all(&cfg),
        cmd::StateChangeView::export_all(&cfg),
        cmd::StateHistoryRequest::export_all(&cfg),
        cmd::StateHistoryView::export_all(&cfg),
        cmd::UndoStateRequest::export_all(&cfg),
        cmd::UndoStateResponse::export_all(&cfg),
        cmd::ClearStateHistoryRequest::export_all(&cfg),
        cmd::ClearStateHistoryResponse::export_all(&cfg),
        cmd::Hint::export_all(&cfg),
        cmd::EvalCheck::export_all(&cfg),
        cmd::EvalRequest::export_all(&cfg),
        cmd::EvalResponse::export_all(&cfg),
        cmd::EvalTurn::export_all(&cfg),
        cmd::EvalObserved::export_all(&cfg),
        cmd::EvalResults::export_all(&cfg),
        cmd::ProtocolRunStatus::export_all(&cfg),
        cmd::AnswerReminderRequest::export_all(&cfg),
        cmd::ProtocolView::export_all(&cfg),
        cmd::ReminderView::export_all(&cfg),
        cmd::RemindersRequest::export_all(&cfg),
        cmd::ReportFormatKind::export_all(&cfg),
        cmd::PlaceLookupStatus::export_all(&cfg),
        cmd::PlaceView::export_all(&cfg),
        cmd::ZoneWarning::export_all(&cfg),
        cmd::ListRunsRequest::export_all(&cfg),
        cmd::ReplayRunRequest::export_all(&cfg),
        cmd::RunDetail::export_all(&cfg),
        cmd::RunEventCounts::export_all(&cfg),
        cmd::RunFileView::export_all(&cfg),
        cmd::RunList::export_all(&cfg),
        cmd::RunReplay::export_all(&cfg),
        cmd::RunSummary::export_all(&cfg),
        cmd::ShowRunRequest::export_all(&cfg),
        cmd::SafetyCheckRequest::export_all(&cfg),
        cmd::SafetyCheckView::export_all(&cfg),
        cmd::SafetyDiscount::export_all(&cfg),
        cmd::ScreenedRisk::export_all(&cfg),
        cmd::AddModelRequest::export_all(&cfg),
        cmd::CatalogModelView::export_all(&cfg),
        cmd::ModelOrigin::export_all(&cfg),
        cmd::SettingChange::export_all(&cfg),
        cmd::SkillCheckProblem::export_all(&cfg),
        cmd::SkillSummary::export_all(&cfg),
        cmd::CheckedSkillView::export_all(&cfg),
        cmd::SkillParts::export_all(&cfg),
        cmd::SkillProblemSeverity::export_all(&cfg),
        cmd::SkillResourceKind::export_all(&cfg),
        cmd::SkillResourceView::export_all(&cfg),
        cmd::SkillRootKind::export_all(&cfg),
        cmd::SkillRootView::export_all(&cfg),
        cmd::SkillShadow::export_all(&cfg),
        cmd::ChartKind::export_all(&cfg),
        cmd::ImportProfileRequest::export_all(&cfg),
        cmd::DatabaseCheck::export_all(&cfg),
        cmd::BackupFileEntry::export_all(&cfg),
        cmd::BackupFileRequest::export_all(&cfg),
        cmd::BackupManifest::export_all(&cfg),
        cmd::BackupRestored::export_all(&cfg),
        cmd::BackupVerified::export_all(&cfg),
        cmd::EraseReport::export_all(&cfg),
        cmd::EraseRequest::export_all(&cfg),
        cmd::Encryption::export_all(&cfg),
        cmd::DatabaseInfo::export_all(&cfg),
        cmd::ExtractMemoryRequest::export_all(&cfg),
        cmd::ExtractMemoryResponse::export_all(&cfg),
        cmd::MemoryKind::export_all(&cfg),
        cmd::MemoryPass::export_all(&cfg),
        cmd::MemoryPassStatus::export_all(&cfg),
        cmd::MemoryReplacedBy::export_all(&cfg),
        cmd::MemorySourceView::export_all(&cfg),
        cmd::MemoryTrigger::export_all(&cfg),
        cmd::MemoryVersion::export_all(&cfg),
        cmd::AppendStateRequest::export_all(&cfg),
        cmd::ProblemCode::export_all(&cfg),
        cmd::SkillProblemView::export_all(&cfg),
        cmd::ReadStateRequest::export_all(&cfg),
        cmd::StateAppended::export_all(&cfg),
        cmd::StateRead::export_all(&cfg),
        cmd::StateReadStatus::export_all(&cfg),
        ApprovalSource::export_all(&cfg),
        DisplayKind::export_all(&cfg),
        ErrorKind::export_all(&cfg),
        PlanStepStatus::export_all(&cfg),
        ProtocolChoice::export_all(&cfg),
        RunStatus::export_all(&cfg),
        SafetyCategory::export_all(&cfg),
        SafetyRisk::export_all(&cfg),
        ToolMode::export_all(&cfg),
        VoiceMode::export_all(&cfg),
    ];
    for r in results {
        r.map_err(|e| format!("exporting TypeScript bindings: {e}"))?;
    }
    crate::command_map::write_commands_ts(&cfg, dir)?;
    let files = read_tree(dir)?;
    let mut index = String::from(
        "// This file was generated by vibe-wire's ts_bindings test. Do not edit it by hand.\n",
    );
    for name in files.keys() {
        let module = name.trim_end_matches(".ts");
        index.push_str(&format!("export type * from \"./{module}\";\n"));
    }
    fs::write(dir.join("index.ts"), index).map_err(|e| format!("writing index.ts: {e}"))
}

/// Every `.ts` file under `dir`, by path relative to it (with `/` separators).
fn read_tree(dir: &Path) -> Result<BTreeMap<String, String>, String> {
    let mut out = BTreeMap::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        let entries = match fs::read_dir(&d) {
            Ok(e) => e,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => continue,
            Err(e) => return Err(format!("reading {}: {e}", d.display())),
        };
        for entry in entries {
            let path = entry.map_err(|e| format!("reading {}: {e}", d.display()))?.path();
            if path.is_dir() {
                stack.push(path);
            } else if path.extension().is_some_and(|x| x == "ts") {
                let rel = path.strip_prefix(dir).map_err(|e| e.to_string())?;
                let rel = rel.to_string_lossy().replace('\\', "/");
                let text = fs::read_to_string(&path)
                    .map_err(|e| format!("reading {}: {e}", path.display()))?;
                out.insert(rel, text);
            }
        }
    }
    Ok(out)
}

/// Names the files that differ between the generated and the committed trees.
fn differences(
    fresh: &BTreeMap<String, String>,
    committed: &BTreeMap<String, String>,
) -> Vec<String> {
    let mut out = Vec::new();
    for (name, text) in fresh {
        match committed.get(name) {
            None => out.push(format!("missing: {name}")),
            Some(old) if old != text => out.push(format!("stale: {name}")),
            Some(_) => {}
        }
    }
    for name in committed.keys().filter(|n| !fresh.contains_key(*n)) {
        out.push(format!("no longer generated: {name}"));
    }
    out
}

#[test]
fn committed_typescript_bindings_match_the_wire_types() {
    let tmp = tempfile::tempdir().unwrap_or_else(|e| panic!("temp dir: {e}"));
    generate(tmp.path()).unwrap_or_else(|e| panic!("{e}"));
    let fresh = read_tree(tmp.path()).unwrap_or_else(|e| panic!("{e}"));
    let target = committed_dir();
    if std::env::var_os("VIBE_WRITE_TS").is_some() {
        if target.exists() {
            fs::remove_dir_all(&target).unwrap_or_else(|e| panic!("clearing {target:?}: {e}"));
        }
        generate(&target).unwrap_or_else(|e| panic!("{e}"));
        return;
    }
    let committed = read_tree(&target).unwrap_or_else(|e| panic!("{e}"));
    let diff = differences(&fresh, &committed);
    assert!(
        diff.is_empty(),
        "ui/src/wire/ is out of date with crates/wire ({}); regenerate with `{REGENERATE}` and commit",
        diff.join(", ")
    );
}

#[test]
fn a_changed_or_missing_binding_is_reported_by_name() {
    let fresh = BTreeMap::from([
        ("Event.ts".to_string(), "new".to_string()),
        ("Plan.ts".to_string(), "same".to_string()),
    ]);
    let committed = BTreeMap::from([
        ("Event.ts".to_string(), "old".to_string()),
        ("Plan.ts".to_string(), "same".to_string()),
        ("Gone.ts".to_string(), "x".to_string()),
    ]);
    assert_eq!(
        differences(&fresh, &committed),
        ["stale: Event.ts", "no longer generated: Gone.ts"]
    );
}
