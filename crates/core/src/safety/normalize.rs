//! Text normalisation before matching: lower case, straight apostrophes and quotes kept
//! distinct, Traditional → Simplified folding from the rules file's `fold` table, and the
//! clause boundaries used by negation.

use std::collections::HashMap;

/// Fold `text` for matching. The result has one char per input char where possible, so
/// positions stay meaningful for clause and quote checks.
pub fn normalize(text: &str, fold: &HashMap<char, char>) -> String {
    text.chars()
        .flat_map(char::to_lowercase)
        .map(|c| match c {
            '\u{2019}' | '\u{2018}' | '\u{ff07}' => '\'',
            other => fold.get(&other).copied().unwrap_or(other),
        })
        .collect()
}

/// Where the clause holding byte `at` starts: after the last clause break before it.
pub fn clause_start(text: &str, at: usize) -> usize {
    text[..at]
        .char_indices()
        .rev()
        .find(|(_, c)| is_clause_break(*c))
        .map_or(0, |(i, c)| i + c.len_utf8())
}

/// Where the clause holding byte `at` ends: at the first clause break from `at` on.
pub fn clause_end(text: &str, at: usize) -> usize {
    text[at..].char_indices().find(|(_, c)| is_clause_break(*c)).map_or(text.len(), |(i, _)| at + i)
}

/// Where the sentence holding byte `at` starts: after the last sentence break before it
/// (a sentence runs over commas; it ends at 。！？!?;； or a new line).
pub fn sentence_start(text: &str, at: usize) -> usize {
    text[..at]
        .char_indices()
        .rev()
        .find(|(_, c)| is_sentence_break(*c))
        .map_or(0, |(i, c)| i + c.len_utf8())
}

/// Where the sentence holding byte `at` ends: at the first sentence break from `at` on.
pub fn sentence_end(text: &str, at: usize) -> usize {
    text[at..]
        .char_indices()
        .find(|(_, c)| is_sentence_break(*c))
        .map_or(text.len(), |(i, _)| at + i)
}

fn is_sentence_break(c: char) -> bool {
    matches!(c, '。' | '！' | '？' | '；' | '!' | '?' | ';' | '.' | '\n')
}

fn is_clause_break(c: char) -> bool {
    matches!(
        c,
        '。' | '！'
            | '？'
            | '；'
            | '，'
            | '、'
            | '!'
            | '?'
            | ';'
            | ','
            | '.'
            | '\n'
            | '…'
            | '~'
            | '～'
    )
}

/// Whether byte `at` lies inside a quotation (“…”, 「…」, 『…』, "…").
pub fn inside_quotes(text: &str, at: usize) -> bool {
    let before = &text[..at];
    let pairs = [('“', '”'), ('「', '」'), ('『', '』')];
    let open =
        pairs.iter().any(|(open, close)| match (before.rfind(*open), before.rfind(*close)) {
            (Some(o), Some(c)) => o > c,
            (Some(_), None) => true,
            _ => false,
        });
    open || !before.matches('"').count().is_multiple_of(2)
}
