//! `eval_safety_model`: layer 2 of the wellbeing safety (docs/safety.md) measured on a
//! labelled set with the configured model. Each message is sent as the first message of a
//! conversation would be — the phase-1 system prompt with its wellbeing instruction and the
//! tools offered there — one call per message; the message counts as flagged when the model
//! calls `flag_wellbeing_concern` with usable arguments. The screen (layer 1) is not asked.

use vibe_context::{ContextBuilder, PromptRequest};
use vibe_llm::{ChatRequest, Message, Params, collect};
use vibe_store::LOCAL_USER;
use vibe_wire::command::SafetyEvalReport;

use super::safety::report;
use crate::app::{App, AppError};
use vibe_agent::safety::{self, Risk, Screening};
use vibe_agent::tools::{FLAG_WELLBEING_CONCERN, ToolRegistry, read_flag};

impl App {
    /// The coach model's own flags on a labelled set (`text`, read from `source`): recall and
    /// false alarms per group, as for the rules. A failed call counts as not flagged and says
    /// why in the outcome's `model_unusable`.
    pub async fn eval_safety_model(
        &self,
        text: &str,
        source: &str,
    ) -> Result<SafetyEvalReport, AppError> {
        let set = safety::parse_labelled(text, source)
            .map_err(|e| AppError::InvalidInput(e.to_string()))?;
        let (model, _notices) = self.model()?;
        let skills = self.skills();
        let context =
            ContextBuilder::new(self.store.clone(), skills.clone(), self.settings().chat.context)?;
        let tools = ToolRegistry::with_builtins().tools_for(&skills, None).definitions();
        let mut got = Vec::with_capacity(set.len());
        let mut notes = Vec::with_capacity(set.len());
        for message in &set {
            let prompt = context.system_prompt(&PromptRequest {
                user: LOCAL_USER,
                active_skill: None,
                scenario: None,
                voice_mode: None,
                persona: None,
                user_message: &message.text,
                protocol_prompt: None,
                summary: None,
                tools: &tools,
                run: None,
            })?;
            let request = ChatRequest {
                messages: vec![
                    Message::system(prompt.system.clone()),
                    Message::user(prompt.user_content(&message.text)),
                ],
                tools: prompt.tools,
                params: Params::default(),
            };
            let (response, error) = collect(model.stream(request)).await;
            let (screening, note) = judged(&response.tool_calls, error);
            got.push(screening);
            notes.push(note);
        }
        let figures = safety::tally(&set, got);
        Ok(report(figures, |i| (Some(true), notes.get(i).cloned().flatten())))
    }
}

/// What the model's answer to one message says: a risk when it called the tool with usable
/// arguments; else none, with the reason when something went wrong.
fn judged(
    calls: &[vibe_llm::ToolCall],
    error: Option<vibe_llm::LlmError>,
) -> (Screening, Option<String>) {
    let flag = calls.iter().find(|c| c.name == FLAG_WELLBEING_CONCERN);
    let Some(flag) = flag else {
        let why = error.map(|e| format!("the model call failed: {e}"));
        return (Screening::clear(), why);
    };
    let args: serde_json::Value = match serde_json::from_str(&flag.arguments) {
        Ok(v) => v,
        Err(e) => {
            return (Screening::clear(), Some(format!("the call's arguments are not JSON: {e}")));
        }
    };
    match read_flag(&args) {
        Ok((risk, category)) => (
            Screening {
                risk: if risk == vibe_wire::SafetyRisk::Acute {
                    Risk::Acute
                } else {
                    Risk::Concern
                },
                category: Some(category),
                rule: Some(FLAG_WELLBEING_CONCERN.to_string()),
                unsure: false,
                discount: None,
                deferred: None,
                learned: None,
            },
            None,
        ),
        Err(out) => (Screening::clear(), Some(format!("the call was refused: {}", out.result))),
    }
}
