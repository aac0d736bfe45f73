//! Text normalisation before matching: lower case, straight apostrophes and quotes kept
//! distinct, Traditional → Simplified folding from the rules file's `fold` table, texting forms
//! (full-width letters, spaced-out Chinese, contractions without apostrophes, letters typed over
//! and over, "my self"), and the clause boundaries used by negation.

use std::borrow::Cow;
use std::collections::HashMap;

/// Fold `text` for matching: lower case, straight apostrophes, full-width letters and digits
/// made plain ("ｄｉｅ" → "die"), the fold table, spaces between Chinese characters dropped
/// ("不 想 活 了"), English contractions typed without their apostrophe restored ("im", "dont",
/// "cant" → "i'm", "don't", "can't"), letters typed over and over squeezed ("dieeee" → "die")
/// and a reflexive typed as two words joined ("my self" → "myself"), so one pattern covers
/// texting style. Every later step (guards, rules, clauses, quotes) works on this folded text.
pub fn normalize(text: &str, fold: &HashMap<char, char>) -> String {
    let folded: String = text
        .chars()
        .flat_map(char::to_lowercase)
        .map(|c| match c {
            '\u{2019}' | '\u{2018}' | '\u{ff07}' => '\'',
            '\u{3000}' => ' ',
            // Full-width digits and letters (not the full-width punctuation of Chinese text,
            // which the rules name as such).
            '\u{ff10}'..='\u{ff19}' | '\u{ff21}'..='\u{ff3a}' | '\u{ff41}'..='\u{ff5a}' => {
                char::from_u32(u32::from(c) - 0xfee0).unwrap_or(c)
            }
            other => fold.get(&other).copied().unwrap_or(other),
        })
        .collect();
    restore_texting_forms(&join_spaced_han(&folded))
}

/// Chinese typed with spaces between the characters ("我 想 死", "不 想 活 了"): a space between
/// two Han characters is dropped when one of them stands alone between spaces, so a pattern
/// written without them matches. A space between two runs ("超想割 一直盯着刀"), which texting
/// uses as a comma, stays.
fn join_spaced_han(text: &str) -> Cow<'_, str> {
    if !text.contains(' ') || !text.chars().any(is_han) {
        return Cow::Borrowed(text);
    }
    let chars: Vec<char> = text.chars().collect();
    let mut out = String::with_capacity(text.len());
    for (i, &c) in chars.iter().enumerate() {
        if c == ' ' {
            let p = chars[..i].iter().rposition(|&p| p != ' ');
            let n = chars[i + 1..].iter().position(|&n| n != ' ').map(|k| i + 1 + k);
            if let (Some(p), Some(n)) = (p, n) {
                let alone_before = p == 0 || chars[p - 1] == ' ';
                let alone_after = chars.get(n + 1).is_none_or(|&c| c == ' ' || !is_han(c));
                if is_han(chars[p]) && is_han(chars[n]) && (alone_before || alone_after) {
                    continue;
                }
            }
        }
        out.push(c);
    }
    Cow::Owned(out)
}

fn is_han(c: char) -> bool {
    matches!(c, '\u{3400}'..='\u{4dbf}' | '\u{4e00}'..='\u{9fff}' | '\u{20000}'..='\u{2ffff}')
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

/// Reflexives typed as two words ("kill my self"): the owner word and the joined form.
const SPLIT_REFLEXIVES: &[(&str, &str, &str)] = &[
    ("my", "self", "myself"),
    ("him", "self", "himself"),
    ("her", "self", "herself"),
    ("your", "self", "yourself"),
    ("it", "self", "itself"),
    ("them", "selves", "themselves"),
    ("our", "selves", "ourselves"),
];

/// Words after "my self" that make it a noun ("my self esteem", "my self harm"), not the
/// reflexive: left as typed.
const SELF_COMPOUNDS: &[&str] = &[
    "esteem",
    "worth",
    "confidence",
    "image",
    "care",
    "doubt",
    "doubts",
    "respect",
    "control",
    "love",
    "belief",
    "talk",
    "awareness",
    "discipline",
    "improvement",
    "harm",
    "harming",
    "injury",
    "portrait",
    "help",
    "interest",
    "pity",
    "defense",
    "defence",
    "assessment",
    "reflection",
    "expression",
    "development",
    "acceptance",
    "compassion",
    "sabotage",
    "destruct",
    "destructive",
    "conscious",
];

/// `word` with letters typed three or more times in a row squeezed: at the end of the word to
/// one ("dieeee" → "die", "sooo" → "so"; two for l, s and f: "killll" → "kill"), inside it to
/// two ("bleeeeding" → "bleeding"). Digits stay as typed ("1000").
fn squeeze(word: &str) -> Cow<'_, str> {
    let b = word.as_bytes();
    if !b.windows(3).any(|w| w[0] == w[1] && w[1] == w[2] && w[0].is_ascii_alphabetic()) {
        return Cow::Borrowed(word);
    }
    let mut out = String::with_capacity(word.len());
    let mut i = 0;
    while i < b.len() {
        let c = b[i];
        let run = b[i..].iter().take_while(|&&x| x == c).count();
        let keep = match (run, i + run == b.len()) {
            (..3, _) => run,
            _ if !c.is_ascii_alphabetic() => run,
            (_, true) if matches!(c, b'l' | b's' | b'f') => 2,
            (_, true) => 1,
            (_, false) => 2,
        };
        out.extend(std::iter::repeat_n(char::from(c), keep));
        i += run;
    }
    Cow::Owned(out)
}

/// When `word` owns a reflexive typed as two words ("my" before " self"), the joined form
/// and how many bytes of `after` it takes.
fn joined_reflexive(word: &str, after: &str) -> Option<(&'static str, usize)> {
    let (_, half, joined) = SPLIT_REFLEXIVES.iter().find(|(owner, _, _)| *owner == word)?;
    let gap = after.len() - after.trim_start_matches(' ').len();
    let rest = after[gap..].strip_prefix(half)?;
    if gap == 0 || rest.starts_with(|c: char| c.is_ascii_alphanumeric() || c == '-' || c == '\'') {
        return None;
    }
    let next: &str =
        rest.trim_start_matches(' ').split(|c: char| !c.is_ascii_alphabetic()).next().unwrap_or("");
    (!SELF_COMPOUNDS.contains(&next)).then_some((*joined, gap + half.len()))
}

/// The English texting forms of [`normalize`], word by word: contractions, dropped g's and
/// texting words written out, letters typed over and over squeezed, "my self" joined.
fn restore_texting_forms(text: &str) -> String {
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
        let squeezed = squeeze(&rest[start..word_end]);
        let word = squeezed.as_ref();
        let after = &rest[word_end..];
        if let Some((joined, taken)) = joined_reflexive(word, after) {
            out.push_str(joined);
            rest = &after[taken..];
            continue;
        }
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
    use std::collections::HashMap;

    use super::{normalize, restore_texting_forms};

    #[test]
    fn full_width_letters_and_spaced_chinese_are_made_plain() {
        let none = HashMap::new();
        assert_eq!(normalize("Ｉ　ｗａｎｔ　ｔｏ　ｄｉｅ", &none), "i want to die");
        assert_eq!(normalize("不 想 活 了", &none), "不想活了");
        assert_eq!(normalize("他  打 我，好痛", &none), "他打我，好痛");
        assert_eq!(normalize("今天超想割 一直盯着刀看", &none), "今天超想割 一直盯着刀看");
        // Full-width punctuation stays: the rules name it.
        assert_eq!(normalize("我好累！你呢？", &none), "我好累！你呢？");
        assert_eq!(normalize("我 ok 的 and 你", &none), "我 ok 的 and 你");
    }

    #[test]
    fn texting_style_contractions_get_their_apostrophe_back() {
        assert_eq!(
            restore_texting_forms("im done, i cant and i dont"),
            "i'm done, i can't and i don't"
        );
        assert_eq!(
            restore_texting_forms("ill be gone, hell kill me"),
            "i'll be gone, he'll kill me"
        );
        assert_eq!(restore_texting_forms("i'm ill. what the hell"), "i'm ill. what the hell");
        assert_eq!(restore_texting_forms("我im好累"), "我i'm好累");
        assert_eq!(restore_texting_forms("thinkin bout it til 2"), "thinking about it until 2");
        assert_eq!(restore_texting_forms("a bout of flu in the shed"), "a bout of flu in the shed");
    }

    #[test]
    fn letters_typed_over_and_over_are_squeezed_but_numbers_are_not() {
        assert_eq!(restore_texting_forms("i want to dieeee"), "i want to die");
        assert_eq!(restore_texting_forms("killllll myself sooo bad"), "kill myself so bad");
        assert_eq!(restore_texting_forms("bleeeeding, nooooo"), "bleeding, no");
        assert_eq!(restore_texting_forms("took 1000mg, 3000 steps"), "took 1000mg, 3000 steps");
        assert_eq!(restore_texting_forms("feel good, need sleep"), "feel good, need sleep");
    }

    #[test]
    fn a_reflexive_typed_as_two_words_is_joined_unless_it_is_a_noun() {
        assert_eq!(restore_texting_forms("i want to kill my self"), "i want to kill myself");
        assert_eq!(restore_texting_forms("hurting my  self again."), "hurting myself again.");
        assert_eq!(restore_texting_forms("he hurt him self"), "he hurt himself");
        assert_eq!(restore_texting_forms("hurts my self esteem"), "hurts my self esteem");
        assert_eq!(restore_texting_forms("my self-harm scars"), "my self-harm scars");
        assert_eq!(restore_texting_forms("my self harm got worse"), "my self harm got worse");
        assert_eq!(restore_texting_forms("my selfie"), "my selfie");
        assert_eq!(restore_texting_forms("them selves"), "themselves");
    }
}
