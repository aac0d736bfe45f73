//! Which typed replies accept an invitation: only a whole agreement, never a message that
//! merely contains 好 / 行 / 可以 / go / yes / sure (issue 28).

use super::*;

/// Everyday messages that contain an agreement word but agree to nothing.
pub(crate) const NOT_AGREEMENTS: &[&str] = &[
    "你好",
    "我好累",
    "最近压力好大",
    "我在银行上班",
    "我去旅行了",
    "好像有点头疼",
    "稍后再说",
    "可以问你个问题吗",
    "不好",
    "good morning",
    "going out",
    "good night",
    "my eyes hurt",
    "I'm under a lot of pressure",
    "I forgot my password",
    "not now",
    "yes, but not today",
    "okay so about my job",
];

#[test]
fn whole_agreements_accept_in_both_languages() {
    for yes in [
        "好",
        "好的",
        "好，开始吧",
        "好的！",
        "开始",
        "可以开始",
        " 好的。 ",
        "ok",
        "OK",
        "okay",
        "yes",
        "Yes!",
        "sure, let's start",
        "Sure, let’s start.",
        "ＯＫ",
        "OK let's start",
    ] {
        assert!(is_acceptance(yes), "{yes:?} should accept");
    }
}

#[test]
fn messages_that_only_contain_an_agreement_word_do_not_accept() {
    for no in NOT_AGREEMENTS.iter().chain(&["", "   ", "！！"]) {
        assert!(!is_acceptance(no), "{no:?} must not accept");
    }
}
