//! Acting on a wellbeing risk, whichever layer found it (docs/safety.md): the deterministic
//! screen before the model call (`chat/safety_hook.rs`) or the coach model's own judgement
//! (the `flag_wellbeing_concern` tool, `tools/wellbeing.rs`). One path for both: the person's
//! message is marked (memory never takes it in), `safety_notice` shows the crisis resources of
//! the person's locale (the data folder's override applied), and the skill's active protocol
//! is paused — at `concern` as at `acute`, so a person who writes about hopelessness is not
//! asked the next protocol question. Also the contacts alone, for a notice shown again (a
//! conversation opened later) or outside the chat (a journal entry, a check-in):
//! [`crisis_resources`]. Deciding whether there is a risk is not done here.

use std::path::PathBuf;
use std::sync::Arc;

use vibe_protocol::ProtocolEngine;
use vibe_store::Store;
use vibe_wire::command::CrisisResources;
use vibe_wire::{ErrorInfo, ErrorKind, Event, SafetyCategory, SafetyResource, SafetyRisk};

use crate::safety::{self, Region};
use crate::store_io::{blocking, off_worker};
use vibe_runlog::emit::Emitter;

/// The supportive prompt text for a risky message (Chinese, like the coach's other sections;
/// the model answers in the person's language). The screen puts it in the system prompt; the
/// tool returns it to the model that flagged.
pub(crate) const SUPPORT_SECTION: &str = "## 安全优先（本轮）
用户刚才的消息可能表明他/她正处于危险或痛苦之中。本轮暂停一切教练、练习和流程：
- 用用户使用的语言回答（用户写英文就用英文回答）。
- 先真诚地承认对方的感受，不评判、不说教。
- 直接、温和地询问对方此刻是否安全，身边是否有人可以陪伴。
- 说出下面列出的求助资源（电话号码），鼓励对方现在就联系。
- 不要做诊断，不要给建议清单，不要继续之前的练习或话题，不要推荐技能。";

/// One found risk of one stored message of the person.
pub(crate) struct Found {
    pub message_id: i64,
    pub risk: SafetyRisk,
    pub category: SafetyCategory,
}

/// Where the risk was found and what to pause.
pub(crate) struct Place<'a> {
    pub store: &'a Arc<Store>,
    pub user: &'a str,
    /// The conversation's active skill, whose active protocol is paused.
    pub skill: Option<&'a str>,
    /// The engine to pause it with (the caller's clock and settings).
    pub protocols: ProtocolEngine,
    pub emitter: &'a Emitter,
    /// The app's language choice, for the contacts when nothing names a region ([`locale`]).
    pub language: Option<&'a str>,
}

/// Mark the message, show the notice, pause the protocol. Returns the contacts shown (for the
/// supportive text). Each failing step is reported as an error event and the others still run:
/// the notice matters more than any one of them.
pub(crate) async fn act(place: Place<'_>, found: Found) -> Vec<SafetyResource> {
    let Place { store, user, skill, protocols, emitter, language } = place;
    let (id, risk, category) = (found.message_id, found.risk, found.category);
    if let Err(e) = blocking(store, move |s| s.mark_message_safety(id, risk, category)).await {
        emitter.emit(Event::Error { error: ErrorInfo::new(e.kind(), e.to_string()) });
    }
    let locale = locale(store, user, language);
    let contacts = contacts(store, &locale, |e| {
        emitter.emit(Event::Error { error: ErrorInfo::new(ErrorKind::Safety, e.to_string()) });
    });
    emitter.emit(Event::SafetyNotice {
        risk,
        category: found.category,
        resources: contacts.clone(),
        locale,
    });
    if let Some(skill) = skill {
        pause_protocol(protocols, skill.to_string(), emitter).await;
    }
    contacts
}

/// The folder of the database: the data folder, where the resources override lives.
fn data_dir(store: &Store) -> Option<PathBuf> {
    store.path().and_then(|p| p.parent()).map(|p| p.to_path_buf())
}

/// The crisis contacts a conversation with a marked message shows again when it is opened
/// (`get_conversation`): the person's locale's now, as a new notice would have them
/// (`language`: the app's language choice, [`locale`]). An override that cannot be used is
/// logged (the turn that raises a notice reports it to the person) and the built-in contacts
/// are given.
pub fn crisis_resources(store: &Store, user: &str, language: Option<&str>) -> CrisisResources {
    let locale = locale(store, user, language);
    let resources = contacts(store, &locale, |e| {
        tracing::warn!("the crisis resources override cannot be used: {e}");
    });
    CrisisResources { resources, locale }
}

/// The contacts of `locale`'s region, the data folder's override applied; an override that
/// cannot be used is reported (with its `path:line`) and the built-in ones are shown.
fn contacts(
    store: &Store,
    locale: &str,
    report: impl Fn(safety::SafetyError),
) -> Vec<SafetyResource> {
    match safety::resources_for(data_dir(store).as_deref()) {
        Ok((resources, problem)) => {
            if let Some(e) = problem {
                report(e);
            }
            resources_of(resources.for_locale(locale))
        }
        Err(e) => {
            report(e);
            Vec::new()
        }
    }
}

/// The locale whose contacts a notice shows ([`choose_locale`]), from the profile, the system
/// (`LC_ALL`, which overrides every category when set, else `LANG`) and the app's language
/// choice.
pub(crate) fn locale(store: &Store, user: &str, language: Option<&str>) -> String {
    let from_profile = store.profile(user).ok().and_then(|p| {
        p.pointer("/preferences/language").and_then(|v| v.as_str()).map(str::to_string)
    });
    let system: Vec<String> =
        ["LC_ALL", "LANG"].into_iter().filter_map(|name| std::env::var(name).ok()).collect();
    let system: Vec<&str> = system.iter().map(String::as_str).collect();
    choose_locale(from_profile.as_deref(), &system, language)
}

/// `preferences.language` of the profile, else the first of the system's values (`LC_ALL`,
/// `LANG`, in that order) that names a locale (it names a region: `en_US`), else the app's
/// language choice (`zh-CN`, `en`: a system without a locale — unset, `C`, `POSIX` — must not
/// show a person who chose Chinese the generic contacts), else `generic`.
fn choose_locale(profile: Option<&str>, system: &[&str], language: Option<&str>) -> String {
    let named = |l: &&str| !l.is_empty();
    profile
        .map(str::trim)
        .filter(named)
        .or_else(|| system.iter().map(|l| l.trim()).find(|l| names_a_locale(l)))
        .or_else(|| language.map(str::trim).filter(named))
        .unwrap_or(safety::GENERIC_LOCALE)
        .to_string()
}

/// Whether a system locale value names one: not empty, not `C` or `POSIX` (with or without an
/// encoding: `C.UTF-8`).
fn names_a_locale(value: &str) -> bool {
    let base = value.split(['.', '@']).next().unwrap_or_default();
    !base.is_empty() && base != "C" && base != "POSIX"
}

/// Pause the active protocol run of `skill`, if any ([`ProtocolEngine::pause`]).
async fn pause_protocol(engine: ProtocolEngine, skill: String, emitter: &Emitter) {
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

/// [`SUPPORT_SECTION`] with the contacts shown to the person.
pub(crate) fn support_prompt(contacts: &[SafetyResource]) -> String {
    let mut prompt = SUPPORT_SECTION.to_string();
    if !contacts.is_empty() {
        prompt.push_str("\n求助资源：");
        for c in contacts {
            prompt.push_str(&format!("\n- {}：{}", c.name, c.number));
        }
    }
    prompt
}

#[cfg(test)]
mod tests {
    use super::choose_locale;

    #[test]
    fn the_profile_then_a_real_system_locale_then_the_app_language_name_the_contacts() {
        assert_eq!(choose_locale(Some("zh-TW"), &["en_US.UTF-8"], Some("en")), "zh-TW");
        assert_eq!(choose_locale(Some(" "), &["en_GB.UTF-8"], Some("zh-CN")), "en_GB.UTF-8");
        assert_eq!(choose_locale(None, &["C.UTF-8", "zh_TW.UTF-8"], None), "zh_TW.UTF-8");
        for no_locale in [&[][..], &[""], &["C"], &["C.UTF-8"], &["POSIX"], &["C.utf8", "C"]] {
            assert_eq!(choose_locale(None, no_locale, Some("zh-CN")), "zh-CN", "{no_locale:?}");
            assert_eq!(choose_locale(None, no_locale, None), "generic", "{no_locale:?}");
        }
    }
}
