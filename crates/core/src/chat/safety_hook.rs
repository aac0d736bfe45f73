//! The chat service's hook into the wellbeing safety screen (issue #11, docs/safety.md): before
//! the model call it screens the person's message with the deterministic rules and, on a risk,
//! marks the message (memory must skip it), emits `safety_notice` with the crisis resources of
//! the person's locale, and for this turn replaces the protocol section with a supportive one.
//! On `acute` it also pauses the skill's active protocol (`protocol_paused`), so the protocol
//! does not advance this turn; on `concern` (e.g. most self-harm wording) the protocol stays
//! active but its section is left out of this turn.
//!
//! When the rules are `unsure`, one small structured call to the configured model rates the
//! message first (`safety::check_with_model`), reported as `safety_check` with its tokens; if
//! its answer cannot be used, the rules' verdict stands and the event says why.
//!
//! The rules live in `crate::safety`; the agent loop never sees any of this beyond the section.

use vibe_store::Conversation;
use vibe_wire::{ErrorInfo, ErrorKind, Event, SafetyResource, TokenUsage};

use super::ChatService;
use crate::emit::Emitter;
use crate::safety::{self, Region, Risk, Screening};
use crate::store_io::{blocking, off_worker};

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
    /// Screen the person's message; the turn is `None` when it carries no risk (or screening
    /// failed, which is reported as an error event). Marks the message and emits the notice on
    /// a risk. The usage is the model check's, when one was made (it counts in the run's).
    pub(super) async fn safety_turn(
        &self,
        conversation: &Conversation,
        user_message: &str,
        user_message_id: i64,
        emitter: &Emitter,
    ) -> (Option<SafetyTurn>, Option<TokenUsage>) {
        let rules = match safety::screen(user_message) {
            Ok(s) => s,
            Err(e) => {
                emitter
                    .emit(Event::Error { error: ErrorInfo::new(ErrorKind::Safety, e.to_string()) });
                return (None, None);
            }
        };
        let (screening, usage) = self.model_check(user_message, rules, emitter).await;
        let turn = self.act_on(conversation, &screening, user_message_id, emitter).await;
        (turn, usage)
    }

    /// Ask the model when the rules are unsure (else the rules' screening, no call), and
    /// report the check as `safety_check`.
    async fn model_check(
        &self,
        user_message: &str,
        rules: Screening,
        emitter: &Emitter,
    ) -> (Screening, Option<TokenUsage>) {
        if !rules.unsure {
            return (rules, None);
        }
        let check = safety::check_with_model(self.model.as_ref(), user_message, rules).await;
        let s = &check.screening;
        emitter.emit(Event::SafetyCheck {
            risk: (s.risk != Risk::None).then(|| s.risk.notice()),
            category: s.category.filter(|_| s.risk != Risk::None),
            rule: s.rule.clone(),
            fallback_reason: check.unusable.clone(),
            usage: check.usage,
        });
        (check.screening, check.usage)
    }

    /// On a risk: mark the message, emit the notice, pause the protocol when acute.
    async fn act_on(
        &self,
        conversation: &Conversation,
        screening: &Screening,
        user_message_id: i64,
        emitter: &Emitter,
    ) -> Option<SafetyTurn> {
        let category = screening.category?;
        let risk = match screening.risk {
            Risk::None => return None,
            Risk::Concern => vibe_wire::SafetyRisk::Concern,
            Risk::Acute => vibe_wire::SafetyRisk::Acute,
        };
        let marked =
            blocking(&self.store, move |s| s.mark_message_safety(user_message_id, risk)).await;
        if let Err(e) = marked {
            emitter.emit(Event::Error { error: ErrorInfo::new(e.kind(), e.to_string()) });
        }
        let locale = self.locale();
        let region = match safety::builtin_resources() {
            Ok(resources) => Some(resources.for_locale(&locale)),
            Err(e) => {
                emitter
                    .emit(Event::Error { error: ErrorInfo::new(ErrorKind::Safety, e.to_string()) });
                None
            }
        };
        let contacts = region.map(resources_of).unwrap_or_default();
        emitter.emit(notice(screening, category, contacts.clone(), &locale));
        let acute = screening.risk == Risk::Acute;
        if acute {
            self.pause_protocol(conversation, emitter).await;
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

    /// Pause the active protocol run of the conversation's skill, if any
    /// ([`crate::protocol::ProtocolEngine::pause`]).
    async fn pause_protocol(&self, conversation: &Conversation, emitter: &Emitter) {
        let Some(skill) = conversation.skill.clone() else { return };
        let engine = self.protocols();
        let paused = match off_worker(move || engine.pause(&skill)).await {
            Ok(paused) => paused,
            Err(e) => {
                emitter.emit(Event::Error { error: ErrorInfo::new(e.kind(), e.to_string()) });
                return;
            }
        };
        match paused {
            Ok(Some((_, events))) => {
                for event in events {
                    emitter.emit(event);
                }
            }
            Ok(None) => {}
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
        risk: screening.risk.notice(),
        category,
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
