//! Tests of the screen: each category fires in both languages, Traditional and Cantonese
//! wording fold, and idioms, negation, fiction and reported speech are handled.

use super::{Category, Discount, Risk, RuleSet, SafetyError, screen};

fn check(text: &str) -> (Risk, Option<Category>) {
    let got = screen(text).unwrap();
    (got.risk, got.category)
}

#[test]
fn builtin_rules_compile_and_are_not_empty() {
    let rules = super::builtin_rules().unwrap();
    assert!(rules.len() >= 10);
}

#[test]
fn each_category_fires_in_chinese_and_english() {
    assert_eq!(check("我想自杀"), (Risk::Acute, Some(Category::Suicide)));
    assert_eq!(check("I want to kill myself"), (Risk::Acute, Some(Category::Suicide)));
    assert_eq!(check("我最近经常自残"), (Risk::Concern, Some(Category::SelfHarm)));
    assert_eq!(check("I cut myself again"), (Risk::Concern, Some(Category::SelfHarm)));
    assert_eq!(check("我要杀了他"), (Risk::Acute, Some(Category::HarmOthers)));
    assert_eq!(check("I'm going to stab him"), (Risk::Acute, Some(Category::HarmOthers)));
    assert_eq!(check("我被性侵了"), (Risk::Acute, Some(Category::Abuse)));
    assert_eq!(check("He threatened to kill me"), (Risk::Acute, Some(Category::Abuse)));
    assert_eq!(check("我胸口剧痛"), (Risk::Acute, Some(Category::Medical)));
    assert_eq!(check("I can't breathe"), (Risk::Acute, Some(Category::Medical)));
}

#[test]
fn traditional_and_cantonese_wording_is_screened() {
    assert_eq!(check("我想結束自己的生命"), (Risk::Acute, Some(Category::Suicide)));
    assert_eq!(check("我真係好想死"), (Risk::Acute, Some(Category::Suicide)));
    assert_eq!(check("我唔想再活落去"), (Risk::Acute, Some(Category::Suicide)));
    assert_eq!(check("我會用煙頭燙自己"), (Risk::Concern, Some(Category::SelfHarm)));
}

#[test]
fn idioms_and_hyperbole_are_not_risk() {
    for text in [
        "笑死我了",
        "累死了",
        "饿死了",
        "今日返工攰到死",
        "他打我电话了",
        "I'm dying to see it",
        "kill the process",
        "this joke killed me",
        "That would be career suicide",
        "I overdosed on Netflix",
    ] {
        let got = screen(text).unwrap();
        assert_eq!(got.risk, Risk::None, "{text}: {got:?}");
        assert!(!got.unsure, "{text}: a guarded idiom is not unsure");
    }
}

#[test]
fn negation_cancels_a_hit_but_leaves_it_unsure() {
    for text in
        ["我不会自杀的", "我不想死", "I would never kill myself", "I'm not going to kill myself"]
    {
        let got = screen(text).unwrap();
        assert_eq!(
            (got.risk, got.discount, got.unsure),
            (Risk::None, Some(Discount::Negated), true),
            "{text}"
        );
    }
    // A negation in another clause does not cancel.
    assert_eq!(check("I don't know, I want to die").0, Risk::Acute);
}

#[test]
fn fiction_and_reported_speech_are_discounted() {
    let film = screen("这部电影里主角最后自杀了").unwrap();
    assert_eq!((film.risk, film.discount), (Risk::None, Some(Discount::Fiction)));
    let friend = screen("My friend told me she wants to die").unwrap();
    assert_eq!(
        (friend.risk, friend.discount, friend.unsure),
        (Risk::Concern, Some(Discount::Reported), true)
    );
    let quoted = screen("他在群里发了一句“我想死”").unwrap();
    assert_eq!((quoted.risk, quoted.discount), (Risk::Concern, Some(Discount::Reported)));
    // Abuse told about oneself stays at full strength.
    assert_eq!(check("我男朋友威胁说如果我分手就杀了我"), (Risk::Acute, Some(Category::Abuse)));
}

#[test]
fn the_strongest_hit_wins() {
    let got = screen("活着好累，我想死").unwrap();
    assert_eq!((got.risk, got.rule.as_deref()), (Risk::Acute, Some("zh.suicide.want_die")));
    assert_eq!(screen("今天天气很好").unwrap(), super::Screening::clear());
}

#[test]
fn a_broken_rules_file_is_refused_with_the_place_named() {
    let bad_pattern = "rules:\n  - id: x.bad\n    category: suicide\n    risk: acute\n    patterns: ['(unclosed']\n";
    let err = RuleSet::parse(bad_pattern, "my.yaml").unwrap_err();
    assert!(matches!(&err, SafetyError::Pattern { rule, .. } if rule == "x.bad"), "{err}");
    assert!(err.to_string().contains("my.yaml"), "{err}");
    let bad_category =
        "rules:\n  - id: x.cat\n    category: sadness\n    risk: acute\n    patterns: ['a']\n";
    let err = RuleSet::parse(bad_category, "my.yaml").unwrap_err().to_string();
    assert!(err.contains("unknown category \"sadness\""), "{err}");
    let bad_fold = "fold: 殺杀殺\nrules: []\n";
    let err = RuleSet::parse(bad_fold, "my.yaml").unwrap_err().to_string();
    assert!(err.contains("odd number"), "{err}");
}

#[test]
fn common_phrasings_beyond_the_labelled_set_are_caught() {
    assert_eq!(check("I am going to end it tonight"), (Risk::Acute, Some(Category::Suicide)));
    assert_eq!(check("我朋友说她被她男朋友打了"), (Risk::Concern, Some(Category::Abuse)));
    // Slang and vague despair are flagged but marked unsure (a model check would decide).
    for text in ["kms, this homework", "我真的撑不住了，想一了百了"] {
        let got = screen(text).unwrap();
        assert_eq!(
            (got.risk, got.category, got.unsure),
            (Risk::Concern, Some(Category::Suicide), true),
            "{text}"
        );
    }
}

#[test]
fn laughter_in_the_clause_reads_as_hyperbole_but_stays_unsure() {
    for text in [
        "kms lol this homework",
        "这么热的天，简直不想活了哈哈",
        "This traffic makes me want to die lol",
    ] {
        let got = screen(text).unwrap();
        assert_eq!(
            (got.risk, got.discount, got.unsure),
            (Risk::None, Some(Discount::Joking), true),
            "{text}"
        );
    }
    // Laughter in another clause does not discount, and abuse told about oneself keeps.
    assert_eq!(check("哈哈，我是说真的，我想死").0, Risk::Acute);
    assert_eq!(check("he hits me lol").1, Some(Category::Abuse));
}

#[test]
fn a_negation_counts_only_a_few_words_before_the_hit() {
    assert_eq!(check("I'm not okay and I want to kill myself").0, Risk::Acute);
    assert_eq!(check("我不会告诉任何人但我想自杀").0, Risk::Acute);
    assert_eq!(check("I don't ever want to die").0, Risk::None);
    assert_eq!(check("我绝对不会去自杀").0, Risk::None);
}

#[test]
fn word_classes_reach_wording_no_line_of_the_sets_uses() {
    // Targets, methods and places are classes, not single phrases.
    assert_eq!(check("我想杀了我前夫"), (Risk::Acute, Some(Category::HarmOthers)));
    assert_eq!(check("我站在阳台上，想跳下去"), (Risk::Acute, Some(Category::Suicide)));
    assert_eq!(check("我攢了好多安眠藥"), (Risk::Acute, Some(Category::Suicide)));
    assert_eq!(check("I'm going to poison my neighbor"), (Risk::Acute, Some(Category::HarmOthers)));
    assert_eq!(
        check("my girlfriend shoved me into the door"),
        (Risk::Concern, Some(Category::Abuse))
    );
    // Idioms built on the same words stay safe.
    for text in [
        "今天跳楼价清仓",
        "好想死你们啊",
        "I hurt myself at the gym doing squats",
        "she'd kill me if I spoiled it",
    ] {
        assert_eq!(check(text).0, Risk::None, "{text}");
    }
}

#[test]
fn english_wording_inside_a_chinese_sentence_is_screened() {
    // Word boundaries are ASCII ones: a Chinese character next to an English word does not
    // glue the two into one "word" (a Unicode boundary would, and the hit would be missed).
    assert_eq!(check("说实话我really want to die了"), (Risk::Acute, Some(Category::Suicide)));
    assert_eq!(check("我觉得I want to kill myself啊"), (Risk::Acute, Some(Category::Suicide)));
    // and an English word inside a longer English word still does not count
    assert_eq!(check("the skills of a killer whale"), (Risk::None, None));
}

#[test]
fn an_unless_context_in_the_same_sentence_drops_the_hit() {
    let yaml = "rules:\n  - id: x.breath\n    category: medical\n    risk: acute\n    patterns: ['喘不过气', '\\bcan''t breathe\\b']\n    unless: ['马拉松|跑步', '\\b(after|from) (running|the run)\\b']\n  - id: x.other\n    category: suicide\n    risk: acute\n    patterns: ['不想活']\n";
    let rules = RuleSet::parse(yaml, "t.yaml").unwrap();
    // The lookalike context in the hit's sentence: no hit at all (not even an unsure one).
    for text in ["跑完马拉松喘不过气，休息一下就好", "I can't breathe after running lol"]
    {
        let got = rules.screen(text);
        assert_eq!(
            (got.risk, got.rule.as_deref(), got.unsure),
            (Risk::None, None, false),
            "{text}"
        );
    }
    // The same words in another sentence do not excuse the hit, nor another rule's hit.
    let got = rules.screen("昨天去跑步了。今天突然喘不过气");
    assert_eq!((got.risk, got.category), (Risk::Acute, Some(Category::Medical)));
    let got = rules.screen("I went running. Now I can't breathe");
    assert_eq!((got.risk, got.category), (Risk::Acute, Some(Category::Medical)));
    let got = rules.screen("跑步也没用，我不想活了");
    assert_eq!((got.risk, got.category), (Risk::Acute, Some(Category::Suicide)));
    let broken = "rules:\n  - id: x.u\n    category: medical\n    risk: acute\n    patterns: ['a']\n    unless: ['(']\n";
    let err = RuleSet::parse(broken, "t.yaml").unwrap_err();
    assert!(matches!(&err, SafetyError::Pattern { rule, .. } if rule == "x.u"), "{err}");
}

#[test]
fn a_named_context_drops_the_hits_of_every_rule_that_lists_it() {
    let yaml = "contexts:\n  running: ['跑步|马拉松']\nrules:\n  - id: x.breath\n    category: medical\n    risk: acute\n    patterns: ['喘不过气']\n    unless_contexts: [running]\n  - id: x.chest\n    category: medical\n    risk: acute\n    patterns: ['胸口(很)?痛']\n    unless: ['健身']\n    unless_contexts: [running]\n  - id: x.other\n    category: medical\n    risk: acute\n    patterns: ['晕倒']\n";
    let rules = RuleSet::parse(yaml, "t.yaml").unwrap();
    for text in ["跑步回来喘不过气", "马拉松后胸口很痛", "健身后胸口痛"] {
        assert_eq!(rules.screen(text).risk, Risk::None, "{text}");
    }
    // Only where the context is listed, and only in the hit's sentence.
    assert_eq!(rules.screen("跑步时晕倒了").risk, Risk::Acute);
    assert_eq!(rules.screen("昨天跑步了。今天胸口痛").risk, Risk::Acute);

    // A context no rule defines, one no rule uses, or one without patterns is refused, named.
    let refused = |yaml: &str, says: &str| {
        let err = RuleSet::parse(yaml, "t.yaml").unwrap_err().to_string();
        assert!(err.contains("t.yaml") && err.contains(says), "{err}");
    };
    let rule = "rules:\n  - id: x.a\n    category: medical\n    risk: acute\n    patterns: ['a']\n";
    refused(
        &format!("contexts:\n  running: ['跑步']\n{rule}    unless_contexts: [runing]\n"),
        "rule \"x.a\": unknown context \"runing\" in unless_contexts (the file's `contexts:` defines running)",
    );
    refused(
        &format!("contexts:\n  running: ['跑步']\n{rule}"),
        "context \"running\" is listed in no rule",
    );
    refused(
        &format!("contexts:\n  running: []\n{rule}    unless_contexts: [running]\n"),
        "context \"running\" has no patterns",
    );
    let broken = format!("contexts:\n  running: ['(']\n{rule}    unless_contexts: [running]\n");
    let err = RuleSet::parse(&broken, "t.yaml").unwrap_err();
    assert!(matches!(&err, SafetyError::Pattern { rule, .. } if rule == "x.a"), "{err}");
}

#[test]
fn a_deferring_context_anywhere_in_the_message_leaves_the_hit_to_the_model_check() {
    let yaml = "contexts:\n  work: ['^护士', '我是护士']\nrules:\n  - id: x.breath\n    category: medical\n    risk: acute\n    defer_contexts: [work]\n    patterns: ['喘不过气']\n  - id: x.faint\n    category: medical\n    risk: acute\n    patterns: ['晕倒']\n";
    let rules = RuleSet::parse(yaml, "t.yaml").unwrap();
    // The setting in another sentence than the hit still counts: the whole message is read.
    for text in ["护士，夜班。三床的大爷喘不过气，处理好了", "今天好累。我是护士，病人喘不过气"]
    {
        let got = rules.screen(text);
        assert_eq!(
            (got.risk, got.rule.as_deref(), got.unsure, got.discount),
            (Risk::None, Some("x.breath"), true, Some(Discount::Context)),
            "{text}: left to the model check, not dropped"
        );
    }
    // Without the setting the hit stands; a rule that does not list it is not deferred.
    assert_eq!(rules.screen("我突然喘不过气").risk, Risk::Acute);
    assert_eq!(rules.screen("我是护士，我妈晕倒了").risk, Risk::Acute);
    let err = RuleSet::parse(
        "rules:\n  - id: x.a\n    category: medical\n    risk: acute\n    defer_contexts: [work]\n    patterns: ['a']\n",
        "t.yaml",
    )
    .unwrap_err()
    .to_string();
    assert!(err.contains("unknown context \"work\" in defer_contexts"), "{err}");
}

#[test]
fn cantonese_characters_fold_to_their_mandarin_equivalents() {
    // 鎅/𠝹 (cut), 佢 (him), 諗 (think), 咗 (aspect marker) reach the Mandarin patterns.
    assert_eq!(check("我會用刀仔鎅手").1, Some(Category::SelfHarm));
    assert_eq!(check("我要斬死佢"), (Risk::Acute, Some(Category::HarmOthers)));
    assert_eq!(check("我成日都諗住死").1, Some(Category::Suicide));
    assert_eq!(check("我媽媽突然暈倒，冇咗知覺").1, Some(Category::Medical));
    // and their idioms stay safe
    assert_eq!(check("今日返工攰到死").0, Risk::None);
}

#[test]
fn broad_word_classes_keep_their_lookalikes_safe() {
    for text in [
        "他跑完马拉松喘不过气，休息一下就好了",
        "我是急诊科护士，今天收了三个心梗病人",
        "搬家前把东西都送给朋友了",
        "我想把这个卡住的进程杀掉",
        "I'm a paramedic, long shift of chest pain calls",
        "my phone's about to die",
        "I beat my brother at chess",
        "dad used to hit me when I was little but we've made peace",
    ] {
        assert_eq!(check(text).0, Risk::None, "{text}");
    }
}

#[test]
fn texting_style_slang_and_pinyin_are_screened_and_their_lookalikes_are_not() {
    // Contractions without apostrophes ("dont", "hes", "ill be") read as the full forms.
    assert_eq!(check("i dont wanna be here anymore").0, Risk::Concern);
    assert_eq!(check("hes got a knife and says hell kill me").1, Some(Category::Abuse));
    assert_eq!(check("goodbye everyone, by the time u read this ill be gone").0, Risk::Acute);
    assert_eq!(check("i wont be here anymore next week, moving to melbourne").0, Risk::None);
    assert_eq!(check("i'm ill, staying home").0, Risk::None);
    assert_eq!(check("thinkin bout jumpin in front of a train").1, Some(Category::Suicide));
    // Slang and abbreviations: zs / 紫砂 (自杀), zc (自残), sh (self-harm), unalive.
    assert_eq!(check("好想zs啊").1, Some(Category::Suicide));
    assert_eq!(check("想紫砂").1, Some(Category::Suicide));
    assert_eq!(check("我買了一個紫砂壺").0, Risk::None);
    assert_eq!(check("zc又復發了").1, Some(Category::SelfHarm));
    assert_eq!(check("relapsed on sh last night after 90 days clean").1, Some(Category::SelfHarm));
    assert_eq!(check("run the deploy.sh script again").0, Risk::None);
    assert_eq!(check("i might just unalive tonight").1, Some(Category::Suicide));
    // Cantonese 喺 (在): locked in at home.
    assert_eq!(check("老公把我鎖喺屋企").1, Some(Category::Abuse));
}
