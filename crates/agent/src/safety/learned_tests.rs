//! The learned detector: the shipped weights load and score exactly as the trainer computed
//! (probe files), it adds a `concern` only where no rule fired, keeps quiet under the rules'
//! discounts, never says `acute`, and a damaged weights file is refused with its line.

use super::learned::language_of;
use super::{
    BUILTIN_LEARNED, BUILTIN_RULES, Category, Discount, LearnedModel, Risk, RuleSet, builtin_rules,
    screen,
};

fn model(lang: &str) -> LearnedModel {
    let (file, text) = BUILTIN_LEARNED.iter().find(|(f, _)| f.contains(lang)).unwrap();
    LearnedModel::parse(text, file).unwrap()
}

#[test]
fn the_rust_scorer_computes_what_the_trainer_computed() {
    let rules = builtin_rules().unwrap();
    for (lang, probes) in [
        ("zh", include_str!("../../data/safety/learned-probe-zh.tsv")),
        ("en", include_str!("../../data/safety/learned-probe-en.tsv")),
    ] {
        let model = model(lang);
        assert_eq!(model.language(), lang);
        let mut n = 0;
        for line in probes.lines().filter(|l| !l.starts_with('#')) {
            let [p, category, text] = line.splitn(3, '\t').collect::<Vec<_>>()[..] else {
                panic!("{lang}: malformed probe {line:?}");
            };
            let got = model.score(&rules.prepare(text));
            let want: f64 = p.parse().unwrap();
            assert!((got.risk - want).abs() < 1e-4, "{lang}: {text:?}: {} != {want}", got.risk);
            if want >= 0.05 {
                assert_eq!(got.category.as_str(), category, "{lang}: {text:?}");
            }
            n += 1;
        }
        assert!(n >= 40, "{lang}: only {n} probes");
    }
}

/// Messages no rule matches that the learned detector flags (written for this test).
const LEARNED_HITS: [(&str, &str); 2] = [
    ("zh", "好想从这个世界上彻底消失"),
    ("en", "honestly everyone would be better off if i just disappeared for good"),
];

#[test]
fn a_message_no_rule_matches_can_be_flagged_as_concern_by_the_learned_detector() {
    let rules = builtin_rules().unwrap();
    let alone = RuleSet::parse(BUILTIN_RULES, "rules.yaml").unwrap();
    for (lang, message) in LEARNED_HITS {
        assert_eq!(language_of(message), lang);
        assert_eq!(alone.screen(message).rule, None, "{message}: a rule fires; pick another");
        let got = rules.screen(message);
        assert_eq!(got.risk, Risk::Concern, "{message}: {got:?}");
        assert!(got.unsure && got.discount.is_none(), "{got:?}");
        assert_eq!(got.category, Some(Category::Suicide), "{got:?}");
        assert_eq!(got.rule.as_deref(), Some("learned:suicide"));
    }
}

#[test]
fn the_learned_detector_keeps_quiet_under_fiction_joking_and_reported_cues() {
    let rules = builtin_rules().unwrap();
    for (message, discount) in [
        ("好想从这个世界上彻底消失😂", Discount::Joking),
        ("好想从这个世界上彻底消失（小说）", Discount::Fiction),
        ("她跟我说好想从这个世界上彻底消失", Discount::Reported),
        ("“好想从这个世界上彻底消失”", Discount::Reported),
        (
            "honestly everyone would be better off if i just disappeared for good lol",
            Discount::Joking,
        ),
        (
            "honestly everyone would be better off if i just disappeared for good, line from the movie",
            Discount::Fiction,
        ),
        (
            "my friend told me everyone would be better off if she just disappeared for good",
            Discount::Reported,
        ),
    ] {
        // The model alone would flag it: the discount is what keeps it quiet.
        let lang = language_of(message);
        assert!(model(lang).score(&rules.prepare(message)).hit, "{message}");
        let got = rules.screen(message);
        assert_eq!(got.risk, Risk::None, "{message}: {got:?}");
        assert_eq!(got.discount, Some(discount), "{message}: {got:?}");
        assert_eq!(got.rule.as_deref(), Some("learned:suicide"), "{message}: {got:?}");
        assert!(got.unsure, "{message}: a discounted hit stays unsure, for the model check");
    }
}

#[test]
fn a_rule_decides_when_one_fires_and_the_learned_detector_never_says_acute() {
    let got = screen("我今晚就去跳楼").unwrap();
    assert!(!got.rule.unwrap().starts_with("learned:"));
    let got = screen("I would never kill myself").unwrap();
    assert_eq!((got.risk, got.discount), (Risk::None, Some(Discount::Negated)));
    assert!(!got.rule.unwrap().starts_with("learned:"), "the rule's discount stands");
    for (_, message) in LEARNED_HITS {
        assert_ne!(screen(message).unwrap().risk, Risk::Acute);
    }
}

#[test]
fn a_damaged_weights_file_is_refused_with_its_line() {
    let (file, text) = BUILTIN_LEARNED[0];
    let cases: [(String, &str); 5] = [
        (text.replacen("version\t1", "version\t2", 1), "version [\"2\"] is not 1"),
        (text.replacen("threshold\t", "threshold\t1", 1), "is not between 0 and 1"),
        (
            text.lines().filter(|l| !l.starts_with("intercept")).collect::<Vec<_>>().join("\n"),
            "expected the \"intercept\" line",
        ),
        (format!("{text}extra\t1.5\t0.1\tx\t0\t0\t0\t0\n"), "expected an idf and 6 weights"),
        (text.lines().take(9).collect::<Vec<_>>().join("\n"), "the file has no features"),
    ];
    for (damaged, want) in cases {
        let err = LearnedModel::parse(&damaged, file).unwrap_err().to_string();
        assert!(err.contains(want) && err.contains(file), "{err}");
        assert!(err.contains("scripts/safety-learn.sh"), "{err}");
    }
    let lines = text.lines().count();
    let err = LearnedModel::parse(
        &format!("{text}⟂⟂\t1\t0\t0\t0\t0\t0\t0\n⟂⟂\t1\t0\t0\t0\t0\t0\t0\n"),
        file,
    )
    .unwrap_err()
    .to_string();
    assert!(err.contains(&format!("line {}: feature \"⟂⟂\" is listed twice", lines + 2)), "{err}");
}

#[test]
fn one_screen_call_stays_fast_in_a_debug_build() {
    let start = std::time::Instant::now();
    for (file, text) in BUILTIN_LEARNED {
        LearnedModel::parse(text, file).unwrap();
    }
    let load = start.elapsed();
    let rules = builtin_rules().unwrap();
    let message = "最近总是睡不好，早上起来也没精神，工作上的事情一件接一件，不知道该从哪里开始";
    rules.screen(message);
    let start = std::time::Instant::now();
    for _ in 0..100 {
        rules.screen(message);
    }
    let each = start.elapsed() / 100;
    eprintln!(
        "loading both weight files: {load:?}; one screen call through the detector: {each:?}"
    );
    assert!(each < std::time::Duration::from_millis(20), "one screen call took {each:?}");
}

/// The first trained detector flagged a scripted test's "我想彻底改变现在的生活" as suicide;
/// ordinary wishes for big changes (everyday batch D) must stay clear.
#[test]
fn ordinary_wishes_for_big_changes_are_not_flagged() {
    for message in [
        "我想彻底改变现在的生活",
        "我想彻底改变",
        "我想重新规划我的人生方向",
        "I want to completely change my life",
        "I want to start over in a new city",
    ] {
        let got = screen(message).unwrap();
        assert_eq!(got.risk, Risk::None, "{message}: {got:?}");
    }
}
