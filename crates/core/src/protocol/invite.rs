//! Invitations (`show_protocol_invitation`): the `protocol_invitation` event with its
//! actions, and the pending invitation kept at `skills.<skill>.protocol_invitation` so that
//! the person's answer — `vibe protocol start|later ID`, a UI action, or a typed "好，开始吧"
//! on the next turn — can be matched to it.

use serde_json::{Value, json};
use vibe_wire::{Event, ProtocolAction, ProtocolChoice};

use super::engine::ProtocolEngine;
use super::error::ProtocolError;

/// What the coach offers with an invitation.
#[derive(Debug, Clone, PartialEq)]
pub struct Invitation<'a> {
    pub skill: Option<&'a str>,
    pub protocol_id: &'a str,
    pub title: Option<&'a str>,
    pub description: Option<&'a str>,
    pub estimated_time: Option<&'a str>,
    pub actions: Vec<ProtocolAction>,
    pub conversation_id: Option<&'a str>,
}

/// The default actions: start / later.
pub fn default_actions() -> Vec<ProtocolAction> {
    vec![
        ProtocolAction { label: "开始".into(), value: ProtocolChoice::Start },
        ProtocolAction { label: "稍后再说".into(), value: ProtocolChoice::Later },
    ]
}

impl ProtocolEngine {
    /// Record a pending invitation and return its event. Unknown protocols are refused.
    pub fn invite(&self, inv: &Invitation<'_>) -> Result<Event, ProtocolError> {
        let (skill, source) = self.find(inv.skill, inv.protocol_id)?;
        let def = &source.def;
        let actions = if inv.actions.is_empty() { default_actions() } else { inv.actions.clone() };
        let pending = json!({
            "id": def.id,
            "status": "pending",
            "conversation_id": inv.conversation_id,
            "at": self.now_text(),
        });
        self.store.set_path(&self.user, &invitation_path(&skill), pending)?;
        Ok(Event::ProtocolInvitation {
            skill,
            protocol_id: def.id.clone(),
            title: inv.title.map_or_else(|| def.title.clone(), String::from),
            description: inv.description.map_or_else(|| def.description.clone(), String::from),
            estimated_time: inv
                .estimated_time
                .map(String::from)
                .or_else(|| def.estimated_time.clone()),
            actions,
        })
    }

    /// The person chose "later": the invitation is closed, nothing starts.
    pub fn later(&self, skill: Option<&str>, id: &str) -> Result<String, ProtocolError> {
        let (skill, _) = self.find(skill, id)?;
        self.close_invitation(&skill, id, "later")?;
        Ok(skill)
    }

    /// The pending invitation of `skill` in `conversation_id`, if any.
    pub(crate) fn pending_invitation(&self, skill: &str, conversation_id: &str) -> Option<String> {
        let state = self.store.read_state(&self.user, skill, None).ok()?.data;
        let inv = state.get("protocol_invitation")?;
        let same = inv.get("conversation_id").and_then(Value::as_str) == Some(conversation_id);
        (inv.get("status").and_then(Value::as_str) == Some("pending") && same)
            .then(|| inv.get("id").and_then(Value::as_str).map(String::from))
            .flatten()
    }

    pub(crate) fn close_invitation(
        &self,
        skill: &str,
        id: &str,
        status: &str,
    ) -> Result<(), ProtocolError> {
        let path = invitation_path(skill);
        let state = self.store.read_state(&self.user, skill, None)?.data;
        let Some(inv) = state.get("protocol_invitation") else {
            if status == "later" {
                let record = json!({"id": id, "status": "later", "at": self.now_text()});
                self.store.set_path(&self.user, &path, record)?;
            }
            return Ok(());
        };
        if inv.get("id").and_then(Value::as_str) == Some(id) {
            self.store.set_path(&self.user, &format!("{path}.status"), json!(status))?;
        }
        Ok(())
    }
}

fn invitation_path(skill: &str) -> String {
    format!("skills.{skill}.protocol_invitation")
}

/// Whether a typed reply accepts an invitation ("好，开始吧", "ok let's start").
pub(crate) fn is_acceptance(message: &str) -> bool {
    let m = message.trim().to_lowercase();
    const NO: [&str; 9] = ["不", "别", "稍后", "以后", "下次", "改天", "later", "not now", "no"];
    const YES: [&str; 12] =
        ["开始", "好", "可以", "行", "来吧", "没问题", "start", "yes", "ok", "sure", "let's", "go"];
    if NO.iter().any(|n| m.contains(n)) {
        return false;
    }
    YES.iter().any(|y| m.contains(y))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn typed_acceptance_is_recognised_and_refusals_are_not() {
        for yes in ["好，开始吧", "可以", "OK let's start", "开始"] {
            assert!(is_acceptance(yes), "{yes}");
        }
        for no in ["不用了", "稍后再说吧", "not now", "今天天气怎么样"] {
            assert!(!is_acceptance(no), "{no}");
        }
    }
}
