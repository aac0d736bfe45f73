//! What the person writes outside the chat — a check-in's note, a journal entry — screened for
//! wellbeing risk (docs/safety.md#journal-and-check-ins): the crisis contacts come back with
//! the saved entry, as the chat shows them before the coach's answer. The rules alone decide
//! here (no model call: a check-in is saved at once and offline), a hit a deferring context
//! held back counting at its own risk, as whenever the model check cannot answer. Nothing is
//! paused or marked (no protocol asks here, no memory reads the journal's words as messages),
//! and the entry is saved whatever the screen says; a screen that cannot run is logged and
//! shows nothing.

use vibe_agent::safety::{self, Risk};
use vibe_store::LOCAL_USER;
use vibe_wire::command::SafetyNoticeView;

use crate::app::App;

impl App {
    /// The crisis notice for `text` the person wrote, when the rules find a risk in it.
    pub(crate) fn notice_for_writing(&self, text: &str) -> Option<SafetyNoticeView> {
        if text.trim().is_empty() {
            return None;
        }
        let screening = match safety::screen(text) {
            Ok(screening) => screening.without_model(),
            Err(e) => {
                tracing::warn!("the safety rules cannot screen a journal entry: {e}");
                return None;
            }
        };
        let category = screening.category?;
        if screening.risk == Risk::None {
            return None;
        }
        let language = self.chosen_language();
        let contacts = vibe_agent::crisis_resources(&self.store, LOCAL_USER, language.as_deref());
        Some(SafetyNoticeView {
            risk: screening.risk.notice(),
            category,
            resources: contacts.resources,
            locale: contacts.locale,
        })
    }
}
