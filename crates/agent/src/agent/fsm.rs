//! The loop's decisions as a pure state machine: inputs are what happened (a model answer, tool
//! results, a prompt size, a cancel), outputs are what to do next. No IO, no async, no clock, so
//! every transition is unit-tested directly.

use vibe_wire::StopReason;

use crate::agent::budgets::Budgets;
use crate::tools::ToolKind;

/// What the driver must do next.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Action {
    /// Call the model for round `round` (1-based) with tools offered.
    CallModel { round: u32 },
    /// Execute these calls (indexes into the model's tool calls, in order); the others get
    /// the given refusal as their observation.
    RunTools { calls: Vec<PlannedCall> },
    /// A budget or guard stopped the run: make one closing model call without tools so the
    /// person hears what was done and what is next, then finish with `reason`. The closing
    /// call is a round of its own (the round count was advanced for it).
    Close { reason: StopReason },
    /// A budget stop the person would otherwise not hear about (the closing call failed or
    /// cannot fit, or it answered nothing and nothing was said before): say the fixed closing
    /// text (`closing::fallback_text`), then finish with `reason`.
    SayFallback { reason: StopReason },
    /// The run is over.
    Finish { reason: StopReason },
}

/// When a model answer is written to the database: an effect of the machine's next step, so
/// the rule is tested with the other decisions (docs/design.md#history).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum StoreAnswer {
    /// The run goes on with the answer's calls: the answer is stored in the commit of the
    /// first of their results (before it, so a result never comes before its call), or
    /// alone before the round waits for the person or is cancelled. Every later result is
    /// stored the moment it completes.
    WithResults,
    /// The run ends with this answer: it is stored with the run's close, in the same commit,
    /// so no reader ever sees a finished answer beside a run still `running`.
    WithClose,
}

/// The machine's step after a model answer: where the answer goes and what to do next.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Answered {
    pub store: StoreAnswer,
    pub next: Action,
}

impl Answered {
    fn new(next: Action) -> Self {
        let store = match next {
            Action::Finish { .. } | Action::SayFallback { .. } => StoreAnswer::WithClose,
            _ => StoreAnswer::WithResults,
        };
        Self { store, next }
    }
}

/// One tool call of a model answer and whether it may run.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PlannedCall {
    pub index: usize,
    pub verdict: CallVerdict,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum CallVerdict {
    Run,
    /// Not run; the observation explains why (budget).
    Refuse(String),
}

/// How one executed call went, for the failure guard.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ToolReport {
    pub name: String,
    pub is_error: bool,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Stage {
    Idle,
    AwaitingModel,
    AwaitingTools,
    Closing(StopReason),
    Done,
}

/// The loop's state.
#[derive(Debug, Clone)]
pub struct Machine {
    budgets: Budgets,
    stage: Stage,
    round: u32,
    tool_calls: u32,
    script_runs: u32,
    failing: Option<(String, u32)>,
    /// Set when this round refused a call for a budget.
    refused: Option<StopReason>,
    /// Whether any answer of this run carried text (then a budget stop needs no fixed text).
    said: bool,
}

impl Machine {
    pub fn new(budgets: Budgets) -> Self {
        Self {
            budgets,
            stage: Stage::Idle,
            round: 0,
            tool_calls: 0,
            script_runs: 0,
            failing: None,
            refused: None,
            said: false,
        }
    }

    pub fn round(&self) -> u32 {
        self.round
    }

    pub fn tool_calls(&self) -> u32 {
        self.tool_calls
    }

    pub fn is_done(&self) -> bool {
        self.stage == Stage::Done
    }

    /// Whether the current model call is the closing one (no tools offered).
    pub fn is_closing(&self) -> bool {
        matches!(self.stage, Stage::Closing(_))
    }

    pub fn start(&mut self) -> Action {
        self.next_round()
    }

    fn next_round(&mut self) -> Action {
        if self.round >= self.budgets.max_rounds {
            return self.close(StopReason::MaxRounds);
        }
        self.round += 1;
        self.stage = Stage::AwaitingModel;
        Action::CallModel { round: self.round }
    }

    fn close(&mut self, reason: StopReason) -> Action {
        self.round += 1;
        self.stage = Stage::Closing(reason);
        Action::Close { reason }
    }

    /// End with a budget `reason`: with the fixed text when the person heard nothing yet.
    fn finish_budget(&mut self, reason: StopReason) -> Action {
        if self.said {
            self.finish(reason)
        } else {
            self.stage = Stage::Done;
            Action::SayFallback { reason }
        }
    }

    /// An answer of this run carried text (call before `on_model_answer` for that answer).
    pub fn on_text(&mut self) {
        self.said = true;
    }

    fn finish(&mut self, reason: StopReason) -> Action {
        self.stage = Stage::Done;
        Action::Finish { reason }
    }

    /// The prompt for the next call was built: stop when it no longer fits.
    pub fn on_prompt(&mut self, prompt_tokens: u32) -> Option<Action> {
        if prompt_tokens > self.budgets.max_context_tokens {
            return Some(match self.stage {
                // Even the closing call would not fit: the fixed text stands in for it.
                Stage::Closing(reason) => self.finish_budget(reason),
                _ => self.finish_budget(StopReason::MaxContextTokens),
            });
        }
        None
    }

    /// The model answered. `calls` are the kinds of the tool calls it made, in order
    /// (`None` for a tool that does not exist: it runs and fails as an observation).
    pub fn on_model_answer(&mut self, calls: &[Option<ToolKind>]) -> Answered {
        Answered::new(self.next_after_answer(calls))
    }

    fn next_after_answer(&mut self, calls: &[Option<ToolKind>]) -> Action {
        if let Stage::Closing(reason) = self.stage {
            return self.finish_budget(reason);
        }
        if calls.is_empty() {
            return self.finish(StopReason::Completed);
        }
        let mut planned = Vec::with_capacity(calls.len());
        for (index, kind) in calls.iter().enumerate() {
            let verdict = if self.tool_calls >= self.budgets.max_tool_calls {
                self.refused = Some(StopReason::MaxToolCalls);
                CallVerdict::Refuse(format!(
                    "not run: the budget of {} tool calls for this reply is used up",
                    self.budgets.max_tool_calls
                ))
            } else if *kind == Some(ToolKind::Script)
                && self.script_runs >= self.budgets.max_script_runs
            {
                self.refused.get_or_insert(StopReason::MaxScriptRuns);
                CallVerdict::Refuse(format!(
                    "not run: the budget of {} script runs for this reply is used up",
                    self.budgets.max_script_runs
                ))
            } else {
                self.tool_calls += 1;
                if *kind == Some(ToolKind::Script) {
                    self.script_runs += 1;
                }
                CallVerdict::Run
            };
            planned.push(PlannedCall { index, verdict });
        }
        self.stage = Stage::AwaitingTools;
        Action::RunTools { calls: planned }
    }

    /// The model call failed for good (after the client's retries). A failed closing call
    /// is replaced by the fixed text, so the budget stop is still explained.
    pub fn on_model_error(&mut self) -> Action {
        if let Stage::Closing(reason) = self.stage {
            self.stage = Stage::Done;
            return Action::SayFallback { reason };
        }
        self.finish(StopReason::ModelError)
    }

    /// The tools of this round finished (executed ones, in order).
    pub fn on_tools_done(&mut self, reports: &[ToolReport]) -> Action {
        for report in reports {
            self.failing = match (&self.failing, report.is_error) {
                (_, false) => None,
                (Some((name, n)), true) if *name == report.name => Some((name.clone(), n + 1)),
                (_, true) => Some((report.name.clone(), 1)),
            };
            if self
                .failing
                .as_ref()
                .is_some_and(|(_, n)| *n >= self.budgets.max_consecutive_failures)
            {
                return self.close(StopReason::RepeatedToolFailure);
            }
        }
        if let Some(reason) = self.refused.take() {
            return self.close(reason);
        }
        if self.tool_calls >= self.budgets.max_tool_calls {
            return self.close(StopReason::MaxToolCalls);
        }
        self.next_round()
    }

    /// The caller cancelled.
    pub fn on_cancel(&mut self) -> Action {
        self.finish(StopReason::Cancelled)
    }

    /// The caller cancelled while the round's `calls` tool calls ran and those at `finished`
    /// (indexes) had completed: they keep their real results; every other call is answered
    /// "cancelled" (returned in call order) so the stored history stays valid. The run ends.
    pub fn on_tools_cancelled(&mut self, calls: usize, finished: &[usize]) -> (Vec<usize>, Action) {
        let unanswered = (0..calls).filter(|i| !finished.contains(i)).collect();
        (unanswered, self.on_cancel())
    }
}

#[cfg(test)]
#[path = "fsm_tests.rs"]
mod tests;
