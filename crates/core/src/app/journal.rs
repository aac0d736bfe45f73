//! The journal and check-ins for the local user (issue 31): `checkin`, `journal_add`,
//! `journal_list`, `journal_edit`, `journal_remove` over the life coach's `journal` list, the
//! one the coach appends to. Entries are named by their creation stamp (the store keeps it one
//! per entry). What the person writes is checked here (mood 1–5, dates, lengths); storing,
//! undo and the list's bounds are the store's. Never reads or writes other skills' state.

use chrono::{DateTime, Local, NaiveDate, Utc};
use serde_json::{Map, Value, json};
use vibe_store::LOCAL_USER;
use vibe_wire::command::{
    CheckinRequest, JournalAddRequest, JournalEditRequest, JournalEntryView, JournalList,
    JournalListRequest, JournalRemoveRequest, JournalRemoved, JournalSaved, JournalSource,
};

use crate::app::{App, AppError};

/// The skill whose state holds the journal, and the list's path in it.
pub const JOURNAL_SKILL: &str = "lifecoach";
pub const JOURNAL_PATH: &str = "journal";

/// Bounds of what a person writes (the store's own bounds apply on top).
const MAX_WORDS: usize = 12;
const MAX_WORD_CHARS: usize = 32;
const MAX_NOTE_CHARS: usize = 500;
const MAX_TEXT_CHARS: usize = 20_000;

impl App {
    /// `checkin`: a mood (1–5), feelings and one line, saved as a journal entry; with the
    /// crisis contacts when the line reads as a wellbeing risk (`journal_safety.rs`).
    pub fn checkin(&self, request: &CheckinRequest) -> Result<JournalSaved, AppError> {
        let mut entry = Map::new();
        entry.insert("date".into(), json!(self.entry_date(request.date.as_deref())?));
        entry.insert("mood".into(), json!(mood(request.mood)?));
        entry.insert("mood_scale".into(), json!(5));
        entry.insert("feelings".into(), json!(words(&request.feelings, "feeling")?));
        let note = request.note.as_deref().unwrap_or("").trim();
        entry.insert("text".into(), json!(bounded(note, "the check-in's note", MAX_NOTE_CHARS)?));
        entry.insert("source".into(), json!("checkin"));
        let entry = self.append_entry(entry)?;
        Ok(JournalSaved { safety: self.notice_for_writing(&entry.text), entry })
    }

    /// `journal_add`: an entry the person writes (Markdown), with optional mood, feelings and
    /// tags; with the crisis contacts when it reads as a wellbeing risk.
    pub fn journal_add(&self, request: &JournalAddRequest) -> Result<JournalSaved, AppError> {
        let text = request.text.trim();
        if text.is_empty() {
            return Err(AppError::InvalidInput(
                "a journal entry needs some text: write what happened or how it felt".into(),
            ));
        }
        let mut entry = Map::new();
        entry.insert("date".into(), json!(self.entry_date(request.date.as_deref())?));
        if let Some(m) = request.mood {
            entry.insert("mood".into(), json!(mood(m)?));
            entry.insert("mood_scale".into(), json!(5));
        }
        entry.insert("feelings".into(), json!(words(&request.feelings, "feeling")?));
        entry.insert("text".into(), json!(bounded(text, "the entry's text", MAX_TEXT_CHARS)?));
        entry.insert("tags".into(), json!(words(&request.tags, "tag")?));
        entry.insert("source".into(), json!("journal"));
        let entry = self.append_entry(entry)?;
        Ok(JournalSaved { safety: self.notice_for_writing(&entry.text), entry })
    }

    /// `journal_list`: newest first, filtered by `query` and dates.
    pub fn journal_list(&self, request: &JournalListRequest) -> Result<JournalList, AppError> {
        let since = request.since.as_deref().map(|d| parse_date(d, "since")).transpose()?;
        let until = request.until.as_deref().map(|d| parse_date(d, "until")).transpose()?;
        let query = request.query.as_deref().map(str::trim).filter(|q| !q.is_empty());
        let query = query.map(str::to_lowercase);
        let entries = self
            .journal_entries()?
            .iter()
            .filter_map(view)
            .filter(|e| {
                let day = NaiveDate::parse_from_str(&e.date, "%Y-%m-%d").ok();
                since.is_none_or(|s| day.is_some_and(|d| d >= s))
                    && until.is_none_or(|u| day.is_some_and(|d| d <= u))
                    && query.as_deref().is_none_or(|q| matches(e, q))
            })
            .take(request.limit.map_or(usize::MAX, |n| n as usize))
            .collect();
        Ok(JournalList { entries })
    }

    /// `journal_edit`: the fields given replace the entry's; the others (and what the coach
    /// wrote beside them) stay. Undoable. A new text is screened as a new entry's is.
    pub fn journal_edit(&self, request: &JournalEditRequest) -> Result<JournalSaved, AppError> {
        let (index, mut entry) = self.find_entry(&request.id)?;
        if let Some(date) = &request.date {
            entry.insert("date".into(), json!(self.entry_date(Some(date))?));
        }
        if let Some(m) = request.mood {
            entry.insert("mood".into(), json!(mood(m)?));
            entry.insert("mood_scale".into(), json!(5));
        }
        if let Some(feelings) = &request.feelings {
            entry.insert("feelings".into(), json!(words(feelings, "feeling")?));
        }
        if let Some(text) = &request.text {
            let text = bounded(text.trim(), "the entry's text", MAX_TEXT_CHARS)?;
            entry.insert("text".into(), json!(text));
        }
        if let Some(tags) = &request.tags {
            entry.insert("tags".into(), json!(words(tags, "tag")?));
        }
        let stored = self.store.edit_list_entry(
            LOCAL_USER,
            JOURNAL_SKILL,
            JOURNAL_PATH,
            index,
            &request.id,
            Value::Object(entry),
        )?;
        let entry = view(&stored).ok_or_else(|| not_found(&request.id))?;
        let safety = request.text.as_ref().and_then(|_| self.notice_for_writing(&entry.text));
        Ok(JournalSaved { entry, safety })
    }

    /// `journal_remove`: the entry goes; the state history can bring it back.
    pub fn journal_remove(
        &self,
        request: &JournalRemoveRequest,
    ) -> Result<JournalRemoved, AppError> {
        let (index, _) = self.find_entry(&request.id)?;
        let by = self.store.front_end();
        let removed = self.store.remove_list_entry_by(
            LOCAL_USER,
            JOURNAL_SKILL,
            JOURNAL_PATH,
            index,
            &request.id,
            &by,
        )?;
        let entry = view(&removed).ok_or_else(|| not_found(&request.id))?;
        Ok(JournalRemoved { entry })
    }

    fn append_entry(&self, entry: Map<String, Value>) -> Result<JournalEntryView, AppError> {
        let out = self.store.append_to_list(
            LOCAL_USER,
            JOURNAL_SKILL,
            JOURNAL_PATH,
            Value::Object(entry),
            usize::MAX,
        )?;
        view(&out.entry).ok_or_else(|| AppError::InvalidInput("the entry was not stored".into()))
    }

    /// The journal's entries as stored, newest first.
    pub(crate) fn journal_entries(&self) -> Result<Vec<Value>, AppError> {
        let sections = [JOURNAL_PATH.to_string()];
        let read = self.store.read_state(LOCAL_USER, JOURNAL_SKILL, Some(&sections))?;
        Ok(match read.data {
            Value::Object(mut data) => match data.remove(JOURNAL_PATH) {
                Some(Value::Array(entries)) => entries,
                _ => Vec::new(),
            },
            _ => Vec::new(),
        })
    }

    /// The place (newest first) and the stored fields of entry `id`.
    fn find_entry(&self, id: &str) -> Result<(usize, Map<String, Value>), AppError> {
        self.journal_entries()?
            .into_iter()
            .enumerate()
            .find_map(|(i, e)| match e {
                Value::Object(fields)
                    if fields.get("_created_at").and_then(Value::as_str) == Some(id) =>
                {
                    Some((i, fields))
                }
                _ => None,
            })
            .ok_or_else(|| not_found(id))
    }

    /// `date` checked (`YYYY-MM-DD`, not after today), or today; in local time.
    fn entry_date(&self, date: Option<&str>) -> Result<String, AppError> {
        let today = (self.assembly().clock)().with_timezone(&Local).date_naive();
        let Some(date) = date else { return Ok(today.format("%Y-%m-%d").to_string()) };
        let day = parse_date(date, "date")?;
        if day > today {
            return Err(AppError::InvalidInput(format!(
                "date {date} is in the future (today is {today}): a journal entry is about a day that has come"
            )));
        }
        Ok(day.format("%Y-%m-%d").to_string())
    }
}

fn not_found(id: &str) -> AppError {
    AppError::InvalidInput(format!(
        "no journal entry with id {id}: list the ids with `vibe journal list` (it may have been removed)"
    ))
}

pub(crate) fn parse_date(text: &str, what: &str) -> Result<NaiveDate, AppError> {
    NaiveDate::parse_from_str(text.trim(), "%Y-%m-%d").map_err(|_| {
        AppError::InvalidInput(format!("{what} \"{text}\" is not a date: write it as YYYY-MM-DD"))
    })
}

fn mood(m: u8) -> Result<u8, AppError> {
    if (1..=5).contains(&m) {
        Ok(m)
    } else {
        Err(AppError::InvalidInput(format!(
            "mood {m} is out of range: use 1 (very low) to 5 (very good)"
        )))
    }
}

/// Feelings or tags: trimmed, empty ones left out, duplicates once, each short, a few.
fn words(list: &[String], what: &str) -> Result<Vec<String>, AppError> {
    let mut out: Vec<String> = Vec::new();
    for word in list.iter().map(|w| w.trim()).filter(|w| !w.is_empty()) {
        if word.chars().count() > MAX_WORD_CHARS {
            return Err(AppError::InvalidInput(format!(
                "{what} \"{word}\" is longer than {MAX_WORD_CHARS} characters: use a word or two"
            )));
        }
        if !out.iter().any(|w| w == word) {
            out.push(word.to_string());
        }
    }
    if out.len() > MAX_WORDS {
        return Err(AppError::InvalidInput(format!(
            "{} {what}s given: at most {MAX_WORDS}",
            out.len()
        )));
    }
    Ok(out)
}

fn bounded(text: &str, what: &str, max: usize) -> Result<String, AppError> {
    let n = text.chars().count();
    if n > max {
        return Err(AppError::InvalidInput(format!("{what} has {n} characters: at most {max}")));
    }
    Ok(text.to_string())
}

fn matches(entry: &JournalEntryView, query: &str) -> bool {
    entry.text.to_lowercase().contains(query)
        || entry.feelings.iter().chain(&entry.tags).any(|w| w.to_lowercase().contains(query))
}

/// A stored entry as the journal shows it (`None` for what is not an entry: no stamp).
pub(crate) fn view(entry: &Value) -> Option<JournalEntryView> {
    let id = entry.get("_created_at")?.as_str()?.to_string();
    let date = match entry.get("date").and_then(Value::as_str) {
        // Already `YYYY-MM-DD` as every front end writes it: kept as it is.
        Some(d) if d.len() == 10 && NaiveDate::parse_from_str(d, "%Y-%m-%d").is_ok() => {
            d.to_string()
        }
        date => date
            .and_then(|d| NaiveDate::parse_from_str(d.trim(), "%Y-%m-%d").ok())
            .or_else(|| {
                let created = DateTime::parse_from_rfc3339(&id).ok()?.with_timezone(&Utc);
                Some(created.with_timezone(&Local).date_naive())
            })?
            .format("%Y-%m-%d")
            .to_string(),
    };
    let source = match entry.get("source").and_then(Value::as_str) {
        Some("checkin") => JournalSource::Checkin,
        Some("journal") => JournalSource::Person,
        _ => JournalSource::Coach,
    };
    Some(JournalEntryView {
        id,
        date,
        mood: five_point_mood(entry),
        feelings: strings(entry.get("feelings")),
        text: text_of(entry),
        tags: strings(entry.get("tags")),
        source,
        edited_at: entry.get("_edited_at").and_then(Value::as_str).map(str::to_string),
    })
}

/// The entry's mood on the five-point scale: as written when it says `mood_scale: 5`, else
/// from the ten-point scale the coach used before (1–2 → 1 … 9–10 → 5).
pub(crate) fn five_point_mood(entry: &Value) -> Option<u8> {
    let m = entry.get("mood")?.as_f64()?;
    let scale = entry.get("mood_scale").and_then(Value::as_u64).unwrap_or(10);
    let five = if scale == 5 { m.round() } else { (m / 2.0).ceil() };
    (1.0..=5.0).contains(&five).then_some(five as u8)
}

fn strings(value: Option<&Value>) -> Vec<String> {
    match value {
        Some(Value::Array(items)) => {
            items.iter().filter_map(Value::as_str).map(str::to_string).collect()
        }
        Some(Value::String(s)) => s
            .split([',', '，', '、'])
            .map(str::trim)
            .filter(|s| !s.is_empty())
            .map(String::from)
            .collect(),
        _ => Vec::new(),
    }
}

/// The entry's text; for a coach's entry without one, its parts one per line.
fn text_of(entry: &Value) -> String {
    if let Some(text) = entry.get("text").and_then(Value::as_str) {
        return text.to_string();
    }
    let mut lines = Vec::new();
    for key in ["highlights", "lessons", "gratitude", "tomorrow", "note", "summary"] {
        match entry.get(key) {
            Some(Value::String(s)) if !s.trim().is_empty() => lines.push(s.trim().to_string()),
            Some(Value::Array(items)) => {
                lines.extend(items.iter().filter_map(Value::as_str).map(str::to_string))
            }
            _ => {}
        }
    }
    lines.join("\n")
}

#[cfg(test)]
#[path = "journal_tests.rs"]
mod tests;
