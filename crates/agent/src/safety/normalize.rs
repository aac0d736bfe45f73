//! Text normalisation before matching: lower case, straight apostrophes and quotes kept
//! distinct, Traditional → Simplified folding from the rules file's `fold` table, and the
//! clause boundaries used by negation.

use std::collections::HashMap;

/// Fold `text` for matching: lower case, straight apostrophes, the fold table, and English
/// contractions typed without their apostrophe restored ("im", "dont", "cant" → "i'm",
/// "don't", "can't"), so one pattern covers texting style. Every later step (guards, rules,
/// clauses, quotes) works on this folded text.
pub fn normalize(text: &str, fold: &HashMap<char, char>) -> String {
    let folded: String = text
        .chars()
        .flat_map(char::to_lowercase)
        .map(|c| match c {
            '\u{2019}' | '\u{2018}' | '\u{ff07}' => '\'',
            other => fold.get(&other).copied().unwrap_or(other),
        })
        .collect();
    restore_contractions(&folded)
}

/// Words that are always a contraction typed without its apostrophe.
const CONTRACTIONS: &[(&str, &str)] = &[
    ("im", "i'm"),
    ("ive", "i've"),
    ("dont", "don't"),
    ("cant", "can't"),
    ("wont", "won't"),
    ("isnt", "isn't"),
    ("arent", "aren't"),
    ("wasnt", "wasn't"),
    ("werent", "weren't"),
    ("doesnt", "doesn't"),
    ("didnt", "didn't"),
    ("couldnt", "couldn't"),
    ("wouldnt", "wouldn't"),
    ("shouldnt", "shouldn't"),
    ("hasnt", "hasn't"),
    ("havent", "haven't"),
    ("hadnt", "hadn't"),
    ("hes", "he's"),
    ("shes", "she's"),
    ("theres", "there's"),
    ("thats", "that's"),
    ("whats", "what's"),
    ("youre", "you're"),
    ("theyre", "they're"),
    ("youve", "you've"),
    ("theyve", "they've"),
    ("u", "you"),
    ("imma", "i'm gonna"),
    ("tryna", "trying to"),
    ("nite", "night"),
    ("til", "until"),
];

/// Texting's dropped g ("thinkin bout jumpin"): the verbs the rules look for, restored.
const DROPPED_G: &[&str] = &[
    "thinkin",
    "jumpin",
    "killin",
    "cuttin",
    "scratchin",
    "harmin",
    "hurtin",
    "goin",
    "doin",
    "tryin",
    "feelin",
    "takin",
    "endin",
    "bleedin",
    "breathin",
    "burnin",
    "hittin",
    "stabbin",
    "shootin",
    "punchin",
    "slappin",
    "chokin",
    "hangin",
    "overdosin",
    "dyin",
    "livin",
    "wantin",
    "plannin",
    "fightin",
    "beatin",
    "throwin",
    "sufferin",
    "strugglin",
    "cryin",
    "bangin",
    "smashin",
    "bashin",
    "chuckin",
    "followin",
    "stalkin",
    "trackin",
    "threatenin",
    "touchin",
    "comin",
    "keepin",
    "screamin",
    "swellin",
    "vomitin",
    "shakin",
    "respondin",
    "wakin",
    "gettin",
    "startin",
    "pickin",
    "bitin",
    "starvin",
    "poisonin",
    "drinkin",
];

/// Words that are a contraction only before one of a few verbs ("ill be gone" but "I'm ill",
/// "hell kill me" but "what the hell").
const CONTRACTIONS_BEFORE_VERB: &[(&str, &str)] = &[
    ("ill", "i'll"),
    ("id", "i'd"),
    ("hell", "he'll"),
    ("shell", "she'll"),
    ("hed", "he'd"),
    ("shed", "she'd"),
];
const VERBS: &[&str] = &[
    "be",
    "do",
    "kill",
    "hurt",
    "never",
    "make",
    "end",
    "go",
    "take",
    "jump",
    "just",
    "finally",
    "probably",
    "definitely",
    "have",
    "get",
    "stab",
    "shoot",
    "burn",
    "cut",
    "rather",
    "beat",
    "find",
    "come",
    "leave",
    "really",
    "honestly",
    "love",
    "not",
    "die",
];

fn restore_contractions(text: &str) -> String {
    if !text.bytes().any(|b| b.is_ascii_alphabetic()) {
        return text.to_string();
    }
    let mut out = String::with_capacity(text.len() + 8);
    let mut rest = text;
    while let Some(start) = rest.find(|c: char| c.is_ascii_alphabetic()) {
        out.push_str(&rest[..start]);
        let word_end = rest[start..]
            .find(|c: char| !c.is_ascii_alphanumeric())
            .map_or(rest.len(), |i| start + i);
        let word = &rest[start..word_end];
        let after = &rest[word_end..];
        let glued = after.starts_with('\'') || out.ends_with('\'');
        let next_word: &str = after
            .strip_prefix(' ')
            .map(|a| a.split(|c: char| !c.is_ascii_alphabetic()).next().unwrap_or(""))
            .unwrap_or("");
        let restored_g = DROPPED_G.contains(&word).then(|| format!("{word}g"));
        let bout = word == "bout"
            && !["a ", "the ", "this ", "that ", "another "].iter().any(|w| out.ends_with(w));
        let full = if glued {
            None
        } else if let Some(restored) = restored_g.as_deref() {
            Some(restored)
        } else if bout {
            Some("about")
        } else {
            CONTRACTIONS.iter().find(|(short, _)| *short == word).map(|(_, full)| *full).or_else(
                || {
                    CONTRACTIONS_BEFORE_VERB
                        .iter()
                        .find(|(short, _)| *short == word && VERBS.contains(&next_word))
                        .map(|(_, full)| *full)
                },
            )
        };
        out.push_str(full.unwrap_or(word));
        rest = after;
    }
    out.push_str(rest);
    out
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

#[cfg(test)]
mod tests {
    use super::restore_contractions;

    #[test]
    fn texting_style_contractions_get_their_apostrophe_back() {
        assert_eq!(
            restore_contractions("im done, i cant and i dont"),
            "i'm done, i can't and i don't"
        );
        assert_eq!(
            restore_contractions("ill be gone, hell kill me"),
            "i'll be gone, he'll kill me"
        );
        assert_eq!(restore_contractions("i'm ill. what the hell"), "i'm ill. what the hell");
        assert_eq!(restore_contractions("我im好累"), "我i'm好累");
        assert_eq!(restore_contractions("thinkin bout it til 2"), "thinking about it until 2");
        assert_eq!(restore_contractions("a bout of flu in the shed"), "a bout of flu in the shed");
    }
}
