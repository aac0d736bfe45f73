//! `insights_week_words` (issue 31): the week's summary card said in the coach's words by the
//! configured model, when the person asks for it. The numbers stay the core's
//! (`insights_series`): only the week's figures — counts, moods, the titles of the protocols
//! completed — go to the model, never an entry's text, and the model only words them. Writes
//! nothing; a failed or empty answer is an error and the card keeps its own sentences.

use vibe_llm::{ChatRequest, Message, Params, collect};
use vibe_wire::command::{
    InsightsRange, InsightsRequest, WeekSummary, WeekWords, WeekWordsRequest,
};

use crate::app::{App, AppError};

/// The longest answer kept (characters): the card has room for a few sentences.
const MAX_CHARS: usize = 600;

impl App {
    /// `insights_week_words`: the seven days ending `request.until`, worded by the model.
    pub async fn insights_week_words(
        &self,
        request: &WeekWordsRequest,
    ) -> Result<WeekWords, AppError> {
        let lang = self.ui_lang(request.lang.as_deref());
        let view = self.insights(&InsightsRequest {
            range: InsightsRange::Week,
            until: request.until.clone(),
            lang: Some(lang.clone()),
        })?;
        let (model, _notices) = self.model()?;
        let chat = ChatRequest {
            messages: vec![Message::system(instruction(&lang)), Message::user(facts(&view.week))],
            tools: Vec::new(),
            params: Params { max_tokens: Some(300), temperature: Some(0.6), ..Params::default() },
        };
        let (response, error) = collect(model.stream(chat)).await;
        if let Some(err) = error {
            return Err(AppError::Llm(err));
        }
        let text = tidy(&response.text);
        if text.is_empty() {
            return Err(AppError::InvalidInput(
                "the model answered nothing for the week's summary; the card's own summary stands \
                 (try again, or check the model in Settings)"
                    .into(),
            ));
        }
        Ok(WeekWords { text, week: view.week })
    }
}

/// What the model is asked to do (in Chinese, as the product's prompts are), answering in the
/// person's language.
fn instruction(lang: &str) -> String {
    let language = if lang.starts_with("en") { "英文（English）" } else { "简体中文" };
    format!(
        "你是用户的生活教练。下面是用户这一周的记录数字（打卡次数、心情 1–5 分、完成的练习）。\
         用{language}写两到三句温暖、具体的话，总结这一周：只用给出的数字和名称，不编造任何事情，\
         不做诊断，不说教；心情偏低时先表达理解，可以轻轻提一个很小的下一步。\
         不要列表，不要标题，不要引用数字以外的细节，直接给出这几句话。"
    )
}

/// The week's figures as the model reads them (no entry text: there is none in them).
fn facts(week: &WeekSummary) -> String {
    let mood = |m: Option<f64>| m.map_or("无".to_string(), |m| format!("{m:.1}"));
    let protocols = if week.protocols_completed.is_empty() {
        "无".to_string()
    } else {
        week.protocols_completed.join("、")
    };
    format!(
        "时间：{} 至 {}\n打卡：{} 次\n其他日记：{} 篇\n有记录的天数：{} / 7\n最常见的心情：{}\n\
         平均心情：{}\n上一周平均心情：{}\n完成的练习：{}",
        week.since,
        week.until,
        week.checkins,
        week.journal_entries,
        week.active_days,
        week.mood_mode.map_or("无".to_string(), |m| m.to_string()),
        mood(week.mood_mean),
        mood(week.previous_mood_mean),
        protocols,
    )
}

/// The answer as the card shows it: trimmed, reasoning tags and Markdown emphasis removed,
/// at most `MAX_CHARS` characters (cut at a sentence end when there is one).
fn tidy(text: &str) -> String {
    let text = match text.rfind("</think>") {
        Some(end) => &text[end + "</think>".len()..],
        None => text,
    };
    let text: String = text.replace("**", "").replace('#', "").trim().to_string();
    if text.chars().count() <= MAX_CHARS {
        return text;
    }
    let cut: String = text.chars().take(MAX_CHARS).collect();
    match cut.rfind(['。', '！', '？', '.', '!', '?']) {
        Some(end) => cut[..end + cut[end..].chars().next().map_or(1, char::len_utf8)].to_string(),
        None => format!("{cut}…"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn week() -> WeekSummary {
        WeekSummary {
            since: "2026-11-23".into(),
            until: "2026-11-29".into(),
            checkins: 5,
            journal_entries: 2,
            active_days: 6,
            mood_mode: Some(4),
            mood_mean: Some(3.8),
            previous_mood_mean: Some(3.1),
            protocols_completed: vec!["每周回顾".into()],
        }
    }

    #[test]
    fn the_model_gets_the_figures_and_the_language_to_answer_in() {
        let said = facts(&week());
        for part in [
            "打卡：5 次",
            "有记录的天数：6 / 7",
            "平均心情：3.8",
            "上一周平均心情：3.1",
            "每周回顾",
        ] {
            assert!(said.contains(part), "{part} in {said}");
        }
        assert!(instruction("en").contains("English"));
        assert!(instruction("zh-CN").contains("简体中文"));
        let empty = WeekSummary {
            mood_mode: None,
            mood_mean: None,
            previous_mood_mean: None,
            protocols_completed: vec![],
            ..week()
        };
        assert!(facts(&empty).contains("平均心情：无"));
    }

    #[test]
    fn the_answer_is_tidied_for_the_card() {
        assert_eq!(tidy("<think>plan</think>\n  **A good week.** "), "A good week.");
        let long = "这一周你很努力。".repeat(100);
        let cut = tidy(&long);
        assert!(cut.chars().count() <= MAX_CHARS && cut.ends_with('。'), "{cut}");
        assert_eq!(tidy("   "), "");
    }
}
