//! Invitations (`show_protocol_invitation`): the `protocol_invitation` event with its
//! actions, and the pending invitation kept at `skills.<skill>.protocol_invitation` so that
//! the person's answer — `vibe protocol start|later ID`, a UI action, or a typed agreement as
//! the very next message ("好，开始吧", "ok") — can be matched to it. Any other next message
//! lets it lapse (issue 28): a protocol starts only when the person chose to start it. The
//! typed agreements are a short closed list per language, matched on the whole normalised
//! reply, never by substring. It must not decide what a turn says (that is `turn`).

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
            title_en: inv.title.is_none().then(|| def.title_en.clone()).flatten(),
            description_en: inv.description.is_none().then(|| def.description_en.clone()).flatten(),
            estimated_time_en: inv
                .estimated_time
                .is_none()
                .then(|| def.estimated_time_en.clone())
                .flatten(),
        })
    }

    /// The next message was not an agreement: the invitation lapses (the coach may offer it
    /// again later) and its event tells front ends to show the card as lapsed.
    pub(crate) fn lapse(&self, skill: &str, id: &str) -> Result<Event, ProtocolError> {
        self.close_invitation(skill, id, "lapsed")?;
        Ok(Event::ProtocolInvitationLapsed {
            skill: skill.to_string(),
            protocol_id: id.to_string(),
        })
    }

    /// Let the skill's pending invitation lapse, in whatever conversation it was shown.
    pub(crate) fn lapse_pending(&self, skill: &str) -> Result<(), ProtocolError> {
        let state = self.store.read_state(&self.user, skill, None)?.data;
        let inv = &state["protocol_invitation"];
        if inv["status"].as_str() == Some("pending")
            && let Some(id) = inv["id"].as_str()
        {
            self.close_invitation(skill, id, "lapsed")?;
        }
        Ok(())
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

/// Whole replies that accept an invitation, as [`normalise`] leaves them (Chinese, then
/// English). Anything else — "你好", "我好累", "good morning", "稍后再说" — does not.
const AGREEMENTS: &[&str] = &[
    "好",
    "好的",
    "好啊",
    "好呀",
    "好吧",
    "好滴",
    "嗯",
    "嗯嗯",
    "嗯好",
    "嗯好的",
    "行",
    "行的",
    "行啊",
    "可以",
    "可以的",
    "可以啊",
    "可以开始",
    "可以开始了",
    "开始",
    "开始吧",
    "开始了",
    "现在开始",
    "那就开始吧",
    "好开始",
    "好开始吧",
    "好的开始",
    "好的开始吧",
    "好啊开始",
    "行开始",
    "好啊开始吧",
    "行开始吧",
    "可以开始吧",
    "来吧",
    "来吧开始",
    "好来吧",
    "没问题",
    "没问题开始吧",
    "当然",
    "当然可以",
    "是的",
    "是",
    "准备好了",
    "我准备好了",
    "走起",
    "开始吧好的",
    "ok",
    "okay",
    "ok lets start",
    "okay lets start",
    "ok lets go",
    "okay lets go",
    "ok start",
    "yes",
    "yes please",
    "yes lets start",
    "yes lets do it",
    "yes lets go",
    "yeah",
    "yep",
    "sure",
    "sure lets start",
    "sure lets go",
    "sure lets do it",
    "lets start",
    "lets go",
    "lets do it",
    "lets begin",
    "start",
    "begin",
    "go ahead",
    "ready",
    "im ready",
    "alright",
    "all right",
    "sounds good",
    "start now",
    "yes start",
];

/// A reply reduced for matching: full-width forms folded to ASCII, lower case, apostrophes
/// dropped, every other run of non-letters (spaces, punctuation, emoji) one space, trimmed.
fn normalise(message: &str) -> String {
    let mut out = String::new();
    let mut gap = false;
    for c in message.chars() {
        let c = match c as u32 {
            0xFF01..=0xFF5E => char::from_u32(c as u32 - 0xFEE0).unwrap_or(c),
            0x3000 => ' ',
            _ => c,
        };
        if matches!(c, '\'' | '\u{2019}' | '\u{2018}') {
            continue;
        }
        if c.is_alphanumeric() {
            if gap && !out.is_empty() && (c.is_ascii() || out.ends_with(|p: char| p.is_ascii())) {
                out.push(' ');
            }
            gap = false;
            out.extend(c.to_lowercase());
        } else {
            gap = true;
        }
    }
    out
}

/// Whether a typed reply, taken whole, accepts an invitation ("好，开始吧", "OK, let's start!").
pub(crate) fn is_acceptance(message: &str) -> bool {
    let m = normalise(message);
    !m.is_empty() && AGREEMENTS.contains(&m.as_str())
}

#[cfg(test)]
#[path = "invite_tests.rs"]
pub(crate) mod tests;
