//! The prompt text of a request: the messages rendered with the model's own chat template
//! (from the GGUF metadata, through llama.cpp's template engine, which recognises the common
//! template families), else ChatML when the model has none or llama.cpp does not know its
//! family. Tokenising and generation are not here.

use llama_cpp_2::model::{LlamaChatMessage, LlamaChatTemplate, LlamaModel};
use vibe_llm::{LlmError, Message};

use crate::stats::TemplateSource;

/// The fallback template's name in llama.cpp (`<|im_start|>role\ncontent<|im_end|>`).
pub(crate) const FALLBACK_TEMPLATE: &str = "chatml";

/// The template a model is prompted with, chosen once at load.
pub(crate) struct Template {
    template: LlamaChatTemplate,
    pub source: TemplateSource,
}

impl Template {
    /// The model's own template when llama.cpp can apply it, else ChatML (with the reason).
    pub fn for_model(model: &LlamaModel) -> Result<Self, LlmError> {
        let probe = [Message::system("s"), Message::user("u")];
        match model.chat_template(None) {
            Ok(template) => {
                let template = Self { template, source: TemplateSource::Model };
                match template.render(model, &probe) {
                    Ok(_) => return Ok(template),
                    Err(e) => tracing::warn!(
                        "the model's chat template is not one llama.cpp knows ({e}); using ChatML"
                    ),
                }
            }
            Err(e) => tracing::info!("the model has no chat template ({e}); using ChatML"),
        }
        let template = LlamaChatTemplate::new(FALLBACK_TEMPLATE)
            .map_err(|e| LlmError::config(format!("the ChatML template cannot be built: {e}")))?;
        Ok(Self { template, source: TemplateSource::ChatmlFallback })
    }

    /// The prompt for `messages`, ending where the assistant's answer begins.
    pub fn render(&self, model: &LlamaModel, messages: &[Message]) -> Result<String, LlmError> {
        let chat = messages
            .iter()
            .map(|m| {
                let (role, content) = role_and_content(m);
                // C strings: a NUL byte cannot be passed; it carries no meaning in a chat.
                LlamaChatMessage::new(role.to_string(), content.replace('\0', ""))
            })
            .collect::<Result<Vec<_>, _>>()
            .map_err(|e| LlmError::config(format!("a message cannot be prompted: {e}")))?;
        model.apply_chat_template(&self.template, &chat, true).map_err(|e| {
            LlmError::config(format!(
                "the local model's chat template could not render the conversation ({e})"
            ))
        })
    }
}

/// Where a warm-up's prefix ends: the text of a probe message after the prefix's messages.
const CUT: &str = "<<vibe-warm-up-cut>>";

impl Template {
    /// The start of the prompt of any request whose messages begin with `messages`: the
    /// prompt of `messages` and one more user message, cut where that message's text begins
    /// (so a template that writes the system prompt into the first user turn, as Gemma's
    /// does, still gives the text the request will start with).
    pub fn render_prefix(
        &self,
        model: &LlamaModel,
        messages: &[Message],
    ) -> Result<String, LlmError> {
        let mut probe = messages.to_vec();
        probe.push(Message::user(CUT));
        let text = self.render(model, &probe)?;
        let at = text.find(CUT).ok_or_else(|| {
            LlmError::config(
                "the local model's chat template dropped a message; the prefix cannot be warmed up",
            )
        })?;
        Ok(text[..at].to_string())
    }
}

/// The template role and text of a message. Tool calls and results normally arrive already
/// rewritten as text by the structured-action adapter; any that do not are shown as text too
/// (a tool result as a user message: templates without a tool role would drop it).
fn role_and_content(message: &Message) -> (&'static str, String) {
    match message {
        Message::System { content } => ("system", content.clone()),
        Message::User { content } => ("user", content.clone()),
        Message::Assistant { content, tool_calls } => {
            let mut text = content.clone();
            for call in tool_calls {
                if !text.is_empty() {
                    text.push('\n');
                }
                let arguments = serde_json::from_str::<serde_json::Value>(call.history_arguments())
                    .unwrap_or_else(|_| serde_json::json!({}));
                let action =
                    serde_json::json!({"action": {"type": call.name, "arguments": arguments}});
                text.push_str(&action.to_string());
            }
            ("assistant", text)
        }
        Message::Tool { tool_call_id, content } => {
            ("user", format!("Observation for {tool_call_id}:\n{content}"))
        }
    }
}
