//! The search key of a place name, the same for the names in the data and for what a person
//! types: lower case, without spaces, hyphens, apostrophes or dots, Traditional characters
//! folded to Simplified (臺北 = 台北, 紐約 = 纽约; OpenCC's character table, `data/t2s.tsv`),
//! and for Chinese names without the administrative suffix (杭州市 → 杭州, 喀什地区 → 喀什).
//! Which names a place has is the data's business (scripts/gen-gazetteer.py).

use std::collections::HashMap;
use std::sync::OnceLock;

/// Traditional → Simplified characters (OpenCC TSCharacters, first choice), one `T<TAB>S`
/// pair a line, written by scripts/gen-gazetteer.py.
static T2S: &str = include_str!("../../data/t2s.tsv");

fn t2s() -> &'static HashMap<char, char> {
    static CELL: OnceLock<HashMap<char, char>> = OnceLock::new();
    CELL.get_or_init(|| {
        T2S.lines()
            .filter(|l| !l.starts_with('#'))
            .filter_map(|l| {
                let (t, s) = l.split_once('\t')?;
                Some((t.chars().next()?, s.chars().next()?))
            })
            .collect()
    })
}

/// Administrative suffixes of Chinese place names, longest first.
const ZH_SUFFIXES: [&str; 19] = [
    "维吾尔自治区",
    "特别行政区",
    "壮族自治区",
    "回族自治区",
    "自治区",
    "自治州",
    "自治县",
    "自治旗",
    "地区",
    "林区",
    "特区",
    "新区",
    "矿区",
    "省",
    "市",
    "区",
    "县",
    "旗",
    "盟",
];

/// The key under which `name` is found.
pub(crate) fn key(name: &str) -> String {
    strip_zh_suffix(&folded(name)).to_string()
}

/// `name` folded like [`key`] but keeping a Chinese suffix (沙湾市 stays 沙湾市, not 沙湾), to
/// tell a full Chinese name typed out from the places sharing its short name.
pub(crate) fn full_key(name: &str) -> String {
    folded(name)
}

fn folded(name: &str) -> String {
    name.chars()
        .filter(|c| !matches!(c, ' ' | '-' | '\'' | '’' | '‘' | '`' | '.' | '·' | '\u{3000}'))
        .flat_map(char::to_lowercase)
        .map(|c| if c < '\u{3400}' { c } else { t2s().get(&c).copied().unwrap_or(c) })
        .collect()
}

/// Whether `text` is written in Chinese characters only (a Chinese name, maybe with its
/// province in front: 江苏苏州).
pub(crate) fn is_han(text: &str) -> bool {
    !text.is_empty() && text.chars().all(|c| ('\u{3400}'..='\u{9fff}').contains(&c))
}

fn strip_zh_suffix(name: &str) -> &str {
    if !is_han(name) {
        return name;
    }
    for suffix in ZH_SUFFIXES {
        if let Some(short) = name.strip_suffix(suffix)
            && short.chars().count() >= 2
        {
            return short;
        }
    }
    name
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_ignore_case_spacing_and_chinese_suffixes() {
        assert_eq!(key("Xi'an"), "xian");
        assert_eq!(key("Xi’an"), "xian");
        assert_eq!(key("New  York"), "newyork");
        assert_eq!(key("Ürümqi"), "ürümqi");
        assert_eq!(key("杭州市"), "杭州");
        assert_eq!(key("喀什地区"), "喀什");
        assert_eq!(key("新疆维吾尔自治区"), "新疆");
        assert_eq!(key("黑龙江省"), "黑龙江");
        // A one-character remainder keeps its suffix: 津市 is not 津.
        assert_eq!(key("津市"), "津市");
    }

    #[test]
    fn traditional_characters_fold_to_simplified() {
        assert_eq!(key("紐約"), key("纽约"));
        assert_eq!(key("臺北市"), "台北");
        assert_eq!(key("溫哥華"), "温哥华");
        assert_eq!(key("奧克蘭"), "奥克兰");
        assert!(t2s().len() > 3_000, "{}", t2s().len());
    }
}
