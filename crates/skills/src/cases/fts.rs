//! The in-memory FTS5 index over one skill's cases. Text is pre-split into terms by
//! `tokenize` and stored space-separated, so FTS5 only has to find whole terms; its `porter`
//! wrapper folds English word endings. One connection per index, behind a mutex.

use std::collections::HashSet;
use std::sync::{Arc, Mutex, PoisonError};

use rusqlite::{Connection, params};
use serde::Serialize;

use super::tokenize::terms;
use crate::error::SkillsError;
use crate::parts::cases::Case;

/// Query terms beyond this many are ignored (a long message still matches on its start).
const MAX_QUERY_TERMS: usize = 64;

/// BM25 column weights: title, keywords, body.
const WEIGHTS: (f64, f64, f64) = (3.0, 5.0, 1.0);

/// A case found for a message.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct CaseMatch {
    pub case: Arc<Case>,
    /// Higher is better (negated BM25).
    pub score: f64,
    /// Terms of the message that occur in the case as written.
    pub matched: Vec<String>,
}

pub(crate) struct CaseIndex {
    conn: Mutex<Connection>,
    cases: Vec<(Arc<Case>, HashSet<String>)>,
}

impl CaseIndex {
    pub fn build(cases: Vec<Arc<Case>>) -> Result<Self, SkillsError> {
        let conn = Connection::open_in_memory()?;
        conn.execute_batch(
            "CREATE VIRTUAL TABLE cases USING fts5(title, keywords, body, tokenize = 'porter unicode61 remove_diacritics 2');",
        )?;
        let mut indexed = Vec::with_capacity(cases.len());
        {
            let mut insert = conn.prepare(
                "INSERT INTO cases(rowid, title, keywords, body) VALUES (?1, ?2, ?3, ?4)",
            )?;
            for (i, case) in cases.into_iter().enumerate() {
                let title = terms(&case.title);
                let keywords: Vec<String> = case.keywords.iter().flat_map(|k| terms(k)).collect();
                let body = terms(&case.body);
                insert.execute(params![
                    i as i64,
                    title.join(" "),
                    keywords.join(" "),
                    body.join(" ")
                ])?;
                let all: HashSet<String> = title.into_iter().chain(keywords).chain(body).collect();
                indexed.push((case, all));
            }
        }
        Ok(Self { conn: Mutex::new(conn), cases: indexed })
    }

    /// The best `k` cases for `message`, best first. No shared term, no match.
    pub fn search(&self, message: &str, k: usize) -> Result<Vec<CaseMatch>, SkillsError> {
        let mut seen = HashSet::new();
        let query_terms: Vec<String> = terms(message)
            .into_iter()
            .filter(|t| seen.insert(t.clone()))
            .take(MAX_QUERY_TERMS)
            .collect();
        if query_terms.is_empty() || k == 0 || self.cases.is_empty() {
            return Ok(Vec::new());
        }
        let query = query_terms
            .iter()
            .map(|t| format!("\"{}\"", t.replace('"', "\"\"")))
            .collect::<Vec<_>>()
            .join(" OR ");
        let conn = self.conn.lock().unwrap_or_else(PoisonError::into_inner);
        let mut stmt = conn.prepare_cached(
            "SELECT rowid, bm25(cases, ?1, ?2, ?3) AS rank FROM cases WHERE cases MATCH ?4 ORDER BY rank LIMIT ?5",
        )?;
        let rows = stmt.query_map(
            params![WEIGHTS.0, WEIGHTS.1, WEIGHTS.2, query, i64::try_from(k).unwrap_or(i64::MAX)],
            |row| Ok((row.get::<_, i64>(0)?, row.get::<_, f64>(1)?)),
        )?;
        let mut out = Vec::new();
        for row in rows {
            let (rowid, rank) = row?;
            let Some((case, all)) = usize::try_from(rowid).ok().and_then(|i| self.cases.get(i))
            else {
                continue;
            };
            let matched = query_terms.iter().filter(|t| all.contains(*t)).cloned().collect();
            out.push(CaseMatch { case: Arc::clone(case), score: -rank, matched });
        }
        Ok(out)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn case(id: &str, title: &str, keywords: &[&str], body: &str) -> Arc<Case> {
        Arc::new(Case {
            id: id.into(),
            title: title.into(),
            keywords: keywords.iter().map(|k| k.to_string()).collect(),
            body: body.into(),
        })
    }

    fn index() -> CaseIndex {
        CaseIndex::build(vec![
            case(
                "overtime",
                "加班后的焦虑",
                &["焦虑", "加班", "失眠"],
                "来访者连续加班三个月，晚上睡不着。",
            ),
            case(
                "breakup",
                "分手之后",
                &["分手", "失恋", "孤独"],
                "她刚结束一段五年的感情，觉得很孤独。",
            ),
            case(
                "career",
                "Changing careers at forty",
                &["career", "job", "change"],
                "He felt stuck in his job and wanted a new career.",
            ),
            case(
                "sleep",
                "Sleepless nights",
                &["insomnia", "sleep"],
                "Trouble sleeping before exams.",
            ),
        ])
        .unwrap()
    }

    fn ids(matches: &[CaseMatch]) -> Vec<&str> {
        matches.iter().map(|m| m.case.id.as_str()).collect()
    }

    #[test]
    fn chinese_messages_find_cases_without_spaces() {
        let found = index().search("最近总是加班，很焦虑", 2).unwrap();
        assert_eq!(ids(&found)[0], "overtime");
        assert!(found[0].matched.contains(&"焦虑".to_string()), "{:?}", found[0].matched);
        assert_eq!(ids(&index().search("我失恋了，好孤独", 1).unwrap()), vec!["breakup"]);
    }

    #[test]
    fn english_messages_match_words_and_word_forms() {
        assert_eq!(ids(&index().search("Should I change my career?", 1).unwrap()), vec!["career"]);
        assert_eq!(ids(&index().search("I keep sleeping badly", 1).unwrap()), vec!["sleep"]);
    }

    #[test]
    fn unrelated_or_empty_messages_match_nothing() {
        assert!(index().search("天气", 3).unwrap().is_empty());
        assert!(index().search("   ", 3).unwrap().is_empty());
        assert!(
            index().search("\"\" OR NEAR(", 3).unwrap().is_empty(),
            "FTS syntax in messages is inert"
        );
    }

    #[test]
    fn top_k_is_respected_and_ranked() {
        let found = index().search("焦虑 失眠 孤独 career sleep", 2).unwrap();
        assert_eq!(found.len(), 2);
        assert!(found[0].score >= found[1].score);
    }
}
