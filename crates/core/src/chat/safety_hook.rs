//! The chat service's hook into the wellbeing safety screen (issue #11, docs/safety.md): before
//! the model call it screens the person's message with the deterministic rules and, on a risk,
//! marks the message (memory must skip it), emits `safety_notice` with the crisis resources of
//! the person's locale, and for this turn replaces the protocol section with a supportive one.
//! On `acute` it also pauses the skill's active protocol (`protocol_paused`), so the protocol
//! does not advance this turn; on `concern` (e.g. most self-harm wording) the protocol stays
//! active but its section is left out of this turn.
//!
//! The rules live in `crate::safety`; the agent loop never sees any of this beyond the section.

use vibe_store::{Conversation, ProtocolStatus};
use vibe_wire::{ErrorInfo, Event, SafetyResource};

use super::ChatService;
use crate::emit::Emitter;
use crate::safety::{self, Region, Risk, Screening};

/// The supportive prompt section for a risky message (Chinese, like the coach's other
/// sections; the model answers in the person's language).
const SUPPORT_SECTION: &str = "## 安全优先（本轮）
用户刚才的消息可能表明他/她正处于危险或痛苦之中。本轮暂停一切教练、练习和流程：
- 用用户使用的语言回答（用户写英文就用英文回答）。
- 先真诚地承认对方的感受，不评判、不说教。
- 直接、温和地询问对方此刻是否安全，身边是否有人可以陪伴。
- 说出下面列出的求助资源（电话号码），鼓励对方现在就联系。
- 不要做诊断，不要给建议清单，不要继续之前的练习或话题，不要推荐技能。";

/// What the screen decided for this turn.
pub(super) struct SafetyTurn {
    /// The supportive section that replaces the protocol section this turn.
    pub prompt: String,
    /// `true` when the protocol must not run this turn (acute).
    pub pause_protocol: bool,
}

impl ChatService {
    /// Screen the person's message; `None` when it carries no risk (or screening failed, which
    /// is reported as an error event). Marks the message and emits the notice on a risk.
    pub(super) fn safety_turn(
        &self,
        conversation: &Conversation,
        user_message: &str,
        user_message_id: i64,
        emitter: &Emitter,
    ) -> Option<SafetyTurn> {
        let screening = match safety::screen(user_message) {
            Ok(s) => s,
            Err(e) => {
                emitter.emit(Event::Error { error: ErrorInfo::new("safety", e.to_string()) });
                return None;
            }
        };
        let category = screening.category?;
        if screening.risk == Risk::None {
            return None;
        }
        if let Err(e) = self.store.mark_message_safety(user_message_id, screening.risk.as_str()) {
            emitter.emit(Event::Error { error: ErrorInfo::new(e.kind(), e.to_string()) });
        }
        let locale = self.locale();
        let region = match safety::builtin_resources() {
            Ok(resources) => Some(resources.for_locale(&locale)),
            Err(e) => {
                emitter.emit(Event::Error { error: ErrorInfo::new("safety", e.to_string()) });
                None
            }
        };
        let contacts = region.map(resources_of).unwrap_or_default();
        emitter.emit(notice(&screening, category, contacts.clone(), &locale));
        let acute = screening.risk == Risk::Acute;
        if acute {
            self.pause_protocol(conversation, emitter);
        }
        Some(SafetyTurn { prompt: support_prompt(&contacts), pause_protocol: acute })
    }

    /// `preferences.language` of the profile, else the system locale (`LANG`), else `generic`.
    fn locale(&self) -> String {
        let from_profile = self.store.profile(&self.user).ok().and_then(|p| {
            p.pointer("/preferences/language").and_then(|v| v.as_str()).map(str::to_string)
        });
        from_profile
            .or_else(|| std::env::var("LANG").ok())
            .map(|l| l.trim().to_string())
            .filter(|l| !l.is_empty() && l != "C" && l != "POSIX")
            .unwrap_or_else(|| safety::GENERIC_LOCALE.to_string())
    }

    /// Pause the active protocol run of the conversation's skill, if any.
    fn pause_protocol(&self, conversation: &Conversation, emitter: &Emitter) {
        let Some(skill) = conversation.skill.as_deref() else { return };
        let engine = self.protocols();
        let Ok(run) = engine.active(skill) else { return };
        let paused = self.store.update_protocol_run(&run.id, |r| {
            r.status = ProtocolStatus::Paused;
            Ok(Vec::new())
        });
        match paused {
            Ok(run) => {
                emitter.emit(Event::ProtocolPaused {
                    protocol_id: run.protocol_id.clone(),
                    protocol_run_id: run.id.clone(),
                    step: run.step,
                    total_steps: run.total_steps,
                });
            }
            Err(e) => {
                emitter.emit(Event::Error { error: ErrorInfo::new(e.kind(), e.to_string()) });
            }
        }
    }
}

fn notice(
    screening: &Screening,
    category: safety::Category,
    resources: Vec<SafetyResource>,
    locale: &str,
) -> Event {
    Event::SafetyNotice {
        risk: screening.risk.as_str().to_string(),
        category: category.as_str().to_string(),
        resources,
        locale: locale.to_string(),
    }
}

/// A region's contacts as notice entries: emergency numbers first, then hotlines.
fn resources_of(region: &Region) -> Vec<SafetyResource> {
    region
        .emergency
        .iter()
        .chain(&region.hotlines)
        .map(|c| SafetyResource {
            name: c.name.clone(),
            number: c.number.clone(),
            note: c.hours.clone().or_else(|| c.url.clone()),
        })
        .collect()
}

fn support_prompt(contacts: &[SafetyResource]) -> String {
    let mut prompt = SUPPORT_SECTION.to_string();
    if !contacts.is_empty() {
        prompt.push_str("\n求助资源：");
        for c in contacts {
            prompt.push_str(&format!("\n- {}：{}", c.name, c.number));
        }
    }
    prompt
}
