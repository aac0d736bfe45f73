//! The in-memory inverted index over one skill's cases, ranked with BM25 exactly as SQLite
//! FTS5's `bm25()` ranks (k1 1.2, b 0.75, IDF `ln((N - n + 0.5) / (n + 0.5))` floored at
//! 1e-6, row length in unweighted terms) with field weights on the term frequency: a term in
//! the keywords counts 5 times, in the title 3 times, in the text once. English words are stemmed (Snowball English) on both sides, so "sleeping"
//! finds "sleep"; CJK terms are the unigrams and bigrams of `tokenize`. A skill has a handful
//! of cases, so scoring them all per query is microseconds, with no database round trip.

use std::collections::{HashMap, HashSet};
use std::sync::Arc;

use rust_stemmers::{Algorithm, Stemmer};
use serde::Serialize;

use super::tokenize::{is_cjk, terms};
use crate::error::SkillsError;
use crate::parts::cases::Case;

/// Query terms beyond this many are ignored (a long message still matches on its start).
const MAX_QUERY_TERMS: usize = 64;

/// Field weights: title, keywords, body.
const WEIGHTS: (f64, f64, f64) = (3.0, 5.0, 1.0);

const K1: f64 = 1.2;
const B: f64 = 0.75;

/// A case found for a message.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct CaseMatch {
    pub case: Arc<Case>,
    /// Higher is better (BM25).
    pub score: f64,
    /// Terms of the message that occur in the case as written.
    pub matched: Vec<String>,
}

struct Doc {
    case: Arc<Case>,
    /// Length in terms (unweighted, as FTS5 counts it).
    len: f64,
    /// The case's terms as written (for `matched`).
    written: HashSet<String>,
}

pub(crate) struct CaseIndex {
    docs: Vec<Doc>,
    /// For each stemmed term, the documents holding it (in document order) and its weighted
    /// frequency there; the term's document frequency is the list's length. A query looks up
    /// each of its terms once, whatever the number of cases.
    postings: HashMap<String, Vec<(usize, f64)>>,
    avg_len: f64,
}

fn stem(stemmer: &Stemmer, term: &str) -> String {
    if term.chars().any(is_cjk) { term.to_string() } else { stemmer.stem(term).into_owned() }
}

impl CaseIndex {
    pub fn build(cases: Vec<Arc<Case>>) -> Result<Self, SkillsError> {
        let stemmer = Stemmer::create(Algorithm::English);
        let mut docs = Vec::with_capacity(cases.len());
        let mut postings: HashMap<String, Vec<(usize, f64)>> = HashMap::new();
        for (i, case) in cases.into_iter().enumerate() {
            let title = terms(&case.title);
            let keywords: Vec<String> = case.keywords.iter().flat_map(|k| terms(k)).collect();
            let body = terms(&case.body);
            let mut tf: HashMap<String, f64> = HashMap::new();
            let mut len = 0.0;
            for (field, weight) in [(&title, WEIGHTS.0), (&keywords, WEIGHTS.1), (&body, WEIGHTS.2)]
            {
                for term in field {
                    *tf.entry(stem(&stemmer, term)).or_default() += weight;
                    len += 1.0;
                }
            }
            for (term, weight) in tf {
                postings.entry(term).or_default().push((i, weight));
            }
            let written = title.into_iter().chain(keywords).chain(body).collect();
            docs.push(Doc { case, len, written });
        }
        let avg_len = if docs.is_empty() {
            1.0
        } else {
            docs.iter().map(|d| d.len).sum::<f64>() / docs.len() as f64
        };
        Ok(Self { docs, postings, avg_len: avg_len.max(1.0) })
    }

    /// The best `k` cases for `message`, best first. No shared term, no match.
    pub fn search(&self, message: &str, k: usize) -> Result<Vec<CaseMatch>, SkillsError> {
        // Distinct terms in order of appearance (a message has few: a list beats hashing).
        let mut query_terms: Vec<String> = Vec::new();
        for term in terms(message) {
            if query_terms.len() == MAX_QUERY_TERMS {
                break;
            }
            if !query_terms.contains(&term) {
                query_terms.push(term);
            }
        }
        if query_terms.is_empty() || k == 0 || self.docs.is_empty() {
            return Ok(Vec::new());
        }
        let stemmer = Stemmer::create(Algorithm::English);
        let mut stems: Vec<String> = query_terms.iter().map(|t| stem(&stemmer, t)).collect();
        stems.sort();
        stems.dedup();
        let n = self.docs.len() as f64;
        // Each document's score sums its terms in the stems' sorted order, as scoring one
        // document at a time would.
        let mut scores = vec![0.0f64; self.docs.len()];
        for term in &stems {
            let Some(docs) = self.postings.get(term) else { continue };
            let df = docs.len() as f64;
            let idf = ((n - df + 0.5) / (df + 0.5)).ln().max(1e-6);
            for &(i, tf) in docs {
                let len = self.docs[i].len;
                scores[i] += idf * tf * (K1 + 1.0) / (tf + K1 * (1.0 - B + B * len / self.avg_len));
            }
        }
        let mut scored: Vec<(usize, f64)> =
            scores.into_iter().enumerate().filter(|&(_, score)| score > 0.0).collect();
        scored.sort_by(|a, b| b.1.total_cmp(&a.1).then(a.0.cmp(&b.0)));
        Ok(scored
            .into_iter()
            .take(k)
            .map(|(i, score)| {
                let doc = &self.docs[i];
                let matched =
                    query_terms.iter().filter(|t| doc.written.contains(*t)).cloned().collect();
                CaseMatch { case: Arc::clone(&doc.case), score, matched }
            })
            .collect())
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
            "query syntax in messages is inert"
        );
    }

    #[test]
    fn top_k_is_respected_and_ranked() {
        let found = index().search("焦虑 失眠 孤独 career sleep", 2).unwrap();
        assert_eq!(found.len(), 2);
        assert!(found[0].score >= found[1].score);
    }
}
