//! The learned detector: the shipped weights load and score exactly as the trainer computed
//! (probe files), it asks the model check only where no rule fired and never raises a risk of
//! its own, keeps quiet under fiction, joking and reported cues, stays off a life coach's
//! everyday openers, and a damaged weights file is refused with its line.

use super::learned::language_of;
use super::{
    BUILTIN_LEARNED, BUILTIN_RULES, Category, Discount, LearnedModel, Risk, RuleSet, builtin_rules,
    screen,
};

fn model(lang: &str) -> LearnedModel<'static> {
    let (_, file, text) = BUILTIN_LEARNED.iter().find(|(l, _, _)| *l == lang).unwrap();
    LearnedModel::parse(text, file).unwrap()
}

#[test]
fn both_built_in_detectors_load_when_first_needed() {
    let rules = builtin_rules().unwrap();
    let languages: Vec<&str> = rules.learned.iter().map(|s| s.language).collect();
    assert_eq!(languages, ["zh", "en"]);
    for source in &rules.learned {
        assert_eq!(source.get().map(|m| m.language()), Some(source.language));
    }
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
            let got = model.score(&rules.prepare(text).0);
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

/// Messages no rule matches that the learned detector asks about (written for this test).
const LEARNED_HITS: [(&str, &str, Category); 2] = [
    ("zh", "好想从这个世界上彻底消失", Category::Suicide),
    (
        "en",
        "honestly everyone would be better off if i just disappeared for good",
        Category::Suicide,
    ),
];

#[test]
fn a_message_no_rule_matches_asks_the_model_check_and_stands_for_nothing_without_it() {
    let rules = builtin_rules().unwrap();
    let alone = RuleSet::parse(BUILTIN_RULES, "rules.yaml").unwrap();
    for (lang, message, category) in LEARNED_HITS {
        assert_eq!(language_of(message), lang);
        assert_eq!(alone.screen(message).rule, None, "{message}: a rule fires; pick another");
        let got = rules.screen(message);
        assert_eq!(got.risk, Risk::None, "{message}: never a risk of its own: {got:?}");
        assert_eq!(got.learned, Some(category), "{message}: {got:?}");
        assert!(got.unsure && got.flagged() && got.discount.is_none(), "{got:?}");
        assert_eq!(got.rule, Some(format!("learned:{}", category.as_str())));
        // Where no model answers (the journal, a failed call), nothing is shown.
        let without = got.without_model();
        assert!(!without.flagged() && without.risk == Risk::None, "{without:?}");
    }
}

#[test]
fn the_learned_detector_keeps_quiet_under_fiction_joking_and_reported_cues() {
    let rules = builtin_rules().unwrap();
    for message in [
        "好想从这个世界上彻底消失哈哈哈",
        "好想从这个世界上彻底消失（小说）",
        "她跟我说好想从这个世界上彻底消失",
        "“好想从这个世界上彻底消失”",
        "honestly everyone would be better off if i just disappeared for good lol",
        "honestly everyone would be better off if i just disappeared for good, line from the movie",
        "my friend told me everyone would be better off if she just disappeared for good",
    ] {
        let got = rules.screen(message);
        assert!(!got.flagged() && got.learned.is_none(), "{message}: {got:?}");
    }
    // The same words without the cue are asked about (so the cue is what keeps it quiet).
    for (_, message, _) in LEARNED_HITS {
        assert!(rules.screen(message).flagged(), "{message}");
    }
}

#[test]
fn a_rule_decides_when_one_fires() {
    let got = screen("我今晚就去跳楼").unwrap();
    assert_eq!(got.risk, Risk::Acute);
    assert!(got.learned.is_none() && !got.rule.unwrap().starts_with("learned:"));
    let got = screen("I would never kill myself").unwrap();
    assert_eq!((got.risk, got.discount), (Risk::None, Some(Discount::Negated)));
    assert!(got.learned.is_none(), "the rule's discount stands: {got:?}");
}

#[test]
fn a_damaged_weights_file_is_refused_with_its_line() {
    let (_, file, text) = BUILTIN_LEARNED[0];
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

/// The sentences a person most often opens a life coach with, and wishes for big changes in
/// risk-adjacent words (session 25's detector raised a notice on the first): never a notice,
/// at most a question for the model check (everyday set 8 counts how many).
#[test]
fn a_life_coachs_everyday_openers_never_raise_a_notice() {
    for message in [
        "我最近一直在想怎么改变生活",
        "我想彻底改变现在的生活",
        "我想彻底改变",
        "我想重新规划我的人生方向",
        "最近工作压力很大，晚上总是睡不好",
        "我想养成早起的习惯，但总是坚持不下来",
        "I want to completely change my life",
        "I want to start over in a new city",
        "I keep thinking about how to change my life lately",
        "work has been exhausting and I can't switch off at night",
        "I want to build a habit of running but I always give up after a week",
    ] {
        let got = screen(message).unwrap();
        assert_eq!(got.risk, Risk::None, "{message}: {got:?}");
        assert!(!got.clone().without_model().flagged(), "{message}: {got:?}");
    }
}
