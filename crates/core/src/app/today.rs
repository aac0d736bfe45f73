//! The Today screen and conversation starters (issue 31): `today` gathers the day's check-ins
//! and entries (the journal's), the streak (`streak.rs`), the day's prompt and the starters
//! the skills declare in `prompts.yaml`, the protocol run in progress, its due reminders and
//! the conversation to continue. Read-only: it never writes the journal or a run.

use chrono::{Datelike, Local, NaiveDate};
use vibe_store::{LOCAL_USER, ProtocolStatus};
use vibe_wire::command::{
    ActiveProtocolView, DailyPromptView, JournalEntryView, JournalSource, StarterList, StarterView,
    StartersRequest, TodayRequest, TodayView,
};

use crate::CoreError;
use crate::app::journal::{parse_date, view};
use crate::app::protocol::{protocol_title, run_view};
use crate::app::streak::{person_days, streak};
use crate::app::{App, AppError, dto};

impl App {
    /// `today`: the Today screen for the local day (or `request.date`).
    pub fn today(&self, request: &TodayRequest) -> Result<TodayView, AppError> {
        let lang = self.ui_lang(request.lang.as_deref());
        let day = match request.date.as_deref() {
            Some(date) => parse_date(date, "date")?,
            None => self.local_today(),
        };
        let entries: Vec<JournalEntryView> =
            self.journal_entries()?.iter().filter_map(view).collect();
        let date = day.format("%Y-%m-%d").to_string();
        let (checkins, journal): (Vec<_>, Vec<_>) = entries
            .iter()
            .filter(|e| e.date == date)
            .cloned()
            .partition(|e| e.source == JournalSource::Checkin);
        let streak = streak(&person_days(&entries), day);
        // Reminders are due now: only today's view shows them (another day's view is a look
        // back or ahead, where "answer now" would be wrong).
        let mut reminders = if day == self.local_today() {
            self.protocol_reminders(&vibe_wire::command::RemindersRequest { due: true })?.reminders
        } else {
            Vec::new()
        };
        reminders.sort_by(|a, b| a.time.cmp(&b.time));
        let last_conversation =
            self.store.list_conversations(LOCAL_USER)?.into_iter().next().map(dto::conversation);
        // What the person wrote today, newest first (ids are creation stamps): the latest
        // words at risk name the notice.
        let mut written: Vec<&JournalEntryView> =
            checkins.iter().chain(&journal).filter(|e| e.source != JournalSource::Coach).collect();
        written.sort_by(|a, b| b.id.cmp(&a.id));
        let safety = written.into_iter().find_map(|e| self.notice_for_writing(&e.text));
        Ok(TodayView {
            date,
            checkins,
            journal,
            streak,
            prompt: self.daily_prompt(day, &lang),
            protocol: self.active_protocol(&lang)?,
            reminders,
            last_conversation,
            safety,
        })
    }

    /// `conversation_starters`: each skill's declared starters (at most three), skills in the
    /// catalogue's order, in the language asked for.
    pub fn conversation_starters(&self, request: &StartersRequest) -> StarterList {
        let lang = self.ui_lang(request.lang.as_deref());
        let registry = self.skills();
        let mut starters = Vec::new();
        for entry in registry.skills().into_iter().filter(|e| e.valid && e.meta.user_invocable) {
            let Ok(Some(prompts)) = registry.prompts(&entry.name) else { continue };
            let display =
                if lang.starts_with("en") { "display_name_en" } else { "display_name_zh" };
            let skill_name =
                entry.meta.metadata.get(display).cloned().unwrap_or_else(|| entry.name.clone());
            starters.extend(prompts.starters.iter().map(|s| StarterView {
                skill: entry.name.clone(),
                skill_name: skill_name.clone(),
                text: s.in_lang(&lang).to_string(),
            }));
        }
        StarterList { starters }
    }

    /// The UI language: the one asked for, else the settings' (`system` reads as Chinese,
    /// the language of the built-in content; the desktop UI always says which it shows).
    pub(crate) fn ui_lang(&self, asked: Option<&str>) -> String {
        match asked.map(str::trim).filter(|l| !l.is_empty()) {
            Some(lang) => lang.to_string(),
            None => self.chosen_language().unwrap_or_else(|| "zh-CN".into()),
        }
    }

    /// Today in local time, by the app's clock.
    pub(crate) fn local_today(&self) -> NaiveDate {
        (self.assembly().clock)().with_timezone(&Local).date_naive()
    }

    /// The day's journaling prompt: the daily prompts of every usable skill that declares
    /// them (catalogue order), one per day in turn, the same all day.
    fn daily_prompt(&self, day: NaiveDate, lang: &str) -> Option<DailyPromptView> {
        let registry = self.skills();
        let mut all = Vec::new();
        for entry in registry.skills().into_iter().filter(|e| e.valid) {
            if let Ok(Some(prompts)) = registry.prompts(&entry.name) {
                all.extend(prompts.daily.iter().map(|p| (entry.name.clone(), p.clone())));
            }
        }
        let n = i64::try_from(all.len()).ok().filter(|n| *n > 0)?;
        let index = usize::try_from(i64::from(day.num_days_from_ce()).rem_euclid(n)).ok()?;
        let (skill, prompt) = all.into_iter().nth(index)?;
        Some(DailyPromptView { skill, text: prompt.in_lang(lang).to_string() })
    }

    /// The run in progress that was active most recently, with its title and current step.
    fn active_protocol(&self, lang: &str) -> Result<Option<ActiveProtocolView>, AppError> {
        let engine = self.protocols();
        let runs = engine.runs(None).map_err(CoreError::from)?;
        let Some(run) = runs.into_iter().find(|r| r.status == ProtocolStatus::Active) else {
            return Ok(None);
        };
        let source = engine.definition(&run).ok();
        let def = source.as_deref().map(|s| &s.def);
        let title = protocol_title(def, &run, lang);
        let step_title = def
            .and_then(|d| d.steps.get((run.step as usize).saturating_sub(1)))
            .map(|s| s.title_in(lang).to_owned())
            .unwrap_or_default();
        Ok(Some(ActiveProtocolView { run: run_view(&engine, &run), title, step_title }))
    }
}
