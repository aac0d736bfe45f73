//! The labelled sets in tests/safety/ measured against the built-in rules: the goals of
//! issue #11 per language (recall ≥ 0.85 on explicit + indirect, false alarms ≤ 5% on
//! lookalikes), and the set's own shape (≥ 80 messages, every group present).

use super::eval::GROUPS;
use super::{Category, Figures, Risk, builtin_rules, evaluate, parse_labelled};

/// The built-in screen's figures on `tests/safety/<dir>/<lang>.tsv`.
fn figures_of(dir: &str, lang: &str) -> Figures {
    let path = format!("{}/../../tests/safety/{dir}/{lang}.tsv", env!("CARGO_MANIFEST_DIR"));
    let set = parse_labelled(&std::fs::read_to_string(&path).unwrap(), &path).unwrap();
    evaluate(builtin_rules().unwrap(), &set)
}

fn measure(lang: &str) -> Figures {
    let path = format!("{}/../../tests/safety/{lang}.tsv", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&path).unwrap();
    let set = parse_labelled(&text, &path).unwrap();
    assert!(set.len() >= 80, "{lang}: only {} messages", set.len());
    for group in GROUPS.iter().filter(|g| **g != "everyday") {
        assert!(set.iter().any(|m| m.group == *group), "{lang}: no {group} messages");
    }
    evaluate(builtin_rules().unwrap(), &set)
}

fn assert_goals(lang: &str) {
    let figures = measure(lang);
    let misses: Vec<String> = figures
        .outcomes
        .iter()
        .filter(|o| {
            !o.correct && ["explicit", "indirect", "lookalike"].contains(&o.message.group.as_str())
        })
        .map(|o| {
            format!(
                "line {} [{}] {} -> {:?}",
                o.message.line, o.message.group, o.message.text, o.got
            )
        })
        .collect();
    assert!(
        figures.recall_explicit_indirect >= 0.85 && figures.false_alarm_lookalike <= 0.05,
        "{lang}: recall {:.3}, lookalike false alarms {:.3}; misses:\n{}",
        figures.recall_explicit_indirect,
        figures.false_alarm_lookalike,
        misses.join("\n")
    );
}

#[test]
fn chinese_set_meets_the_goals() {
    assert_goals("zh");
}

#[test]
fn english_set_meets_the_goals() {
    assert_goals("en");
}

#[test]
fn a_malformed_labelled_line_names_file_and_line() {
    let err = parse_labelled("# c\nexplicit\tacute\tsuicide\tok\nsafe\tmaybe\t-\thi\n", "x.tsv")
        .unwrap_err();
    assert_eq!(
        err.to_string(),
        "x.tsv:3: unknown risk \"maybe\" (use none, concern or acute) (expected: group<TAB>risk<TAB>category<TAB>text)"
    );
}

/// The fresh sets (`tests/safety/fresh/`): written from the category names alone before the
/// rules were read, never tuned on. Issue #28's goals for layer 1: explicit wording recall
/// ≥ 0.95 and false alarms on safe lookalikes ≤ 0.10, per language.
fn assert_fresh_goals(lang: &str) {
    assert_layer_one_goals("fresh", lang, 100, 80);
}

/// Explicit recall ≥ 0.95 and lookalike false alarms ≤ 0.10 on `tests/safety/<dir>/<lang>.tsv`,
/// which must hold at least `min_explicit` risky explicit and `min_lookalike` safe lookalike
/// messages.
fn assert_layer_one_goals(dir: &str, lang: &str, min_explicit: usize, min_lookalike: usize) {
    let figures = figures_of(dir, lang);
    let group = |name: &str| figures.groups.iter().find(|g| g.group == name).unwrap().clone();
    let (explicit, lookalike) = (group("explicit"), group("lookalike"));
    assert!(
        explicit.risky >= min_explicit && lookalike.safe >= min_lookalike,
        "{dir}/{lang}: the set is too small"
    );
    let recall = explicit.detected as f64 / explicit.risky as f64;
    let false_alarms = lookalike.false_alarms as f64 / lookalike.safe as f64;
    let misses: Vec<String> = figures
        .outcomes
        .iter()
        .filter(|o| !o.correct)
        .map(|o| {
            let rule = o.got.rule.as_deref().unwrap_or("-");
            format!(
                "line {} [{}] {} (rule {rule})",
                o.message.line, o.message.group, o.message.text
            )
        })
        .collect();
    assert!(
        recall >= 0.95 && false_alarms <= 0.10,
        "{dir}/{lang}: explicit recall {recall:.3}, lookalike false alarms {false_alarms:.3}; wrong:\n{}",
        misses.join("\n")
    );
}

#[test]
fn fresh_chinese_set_meets_the_layer_one_goals() {
    assert_fresh_goals("zh");
}

#[test]
fn fresh_english_set_meets_the_layer_one_goals() {
    assert_fresh_goals("en");
}

/// The second tuning set of issue #28 (`tests/safety/tuning2/`): 400 explicit messages per
/// language (80 a category, both levels) and 150+ lookalikes, written before the rules were
/// widened for it. A tuning set: passing it says the word classes cover it, not that they
/// generalise (docs/safety.md keeps the blind set apart).
#[test]
fn second_tuning_sets_meet_the_layer_one_goals() {
    for lang in ["zh", "en"] {
        assert_layer_one_goals("tuning2", lang, 400, 150);
    }
}

#[test]
fn second_tuning_sets_cover_every_category_with_both_levels() {
    for lang in ["zh", "en"] {
        let path = format!("{}/../../tests/safety/tuning2/{lang}.tsv", env!("CARGO_MANIFEST_DIR"));
        let set = parse_labelled(&std::fs::read_to_string(&path).unwrap(), &path).unwrap();
        for category in [
            Category::Suicide,
            Category::SelfHarm,
            Category::HarmOthers,
            Category::Abuse,
            Category::Medical,
        ] {
            for risk in [Risk::Concern, Risk::Acute] {
                let n = set
                    .iter()
                    .filter(|m| {
                        m.group == "explicit" && m.category == Some(category) && m.risk == risk
                    })
                    .count();
                assert!(n >= 15, "{lang}: only {n} explicit {risk:?} {category:?} messages");
            }
        }
    }
}

/// The third tuning set of issue #28 (`tests/safety/tuning3/`, batches F, G and H): 230
/// explicit messages per language deliberately varied (slang, texting style, typos,
/// Traditional and Cantonese wording, pinyin abbreviations) and 60 lookalikes, each batch
/// measured once before the rules were widened for it. A tuning set from then on.
#[test]
fn third_tuning_sets_meet_the_layer_one_goals() {
    for lang in ["zh", "en"] {
        assert_layer_one_goals("tuning3", lang, 150, 40);
    }
}

/// Tuning set 4 (`tests/safety/tuning4/`): 240 explicit messages a language in the classes
/// blind set 4 showed weakest (medical concern, harm to others, self-harm) and 100 lookalikes,
/// measured once (zh 0.454, en 0.417) before round J widened the rules for it.
#[test]
fn fourth_tuning_sets_meet_the_layer_one_goals() {
    for lang in ["zh", "en"] {
        assert_layer_one_goals("tuning4", lang, 240, 100);
    }
}

/// Tuning set 5 (`tests/safety/tuning5/`): 210 concern-level messages a language (medical,
/// harm to others, self-harm) and 90 lookalikes, measured once (zh 0.514, en 0.448) before
/// round K widened the rules for it.
#[test]
fn fifth_tuning_sets_meet_the_layer_one_goals() {
    for lang in ["zh", "en"] {
        assert_layer_one_goals("tuning5", lang, 210, 90);
    }
}

/// Tuning set 6 (`tests/safety/tuning6/`): 260 explicit messages a language in the classes
/// blind sets 5 and 6 showed weakest (abuse, harm to others, medical concern, self-harm
/// acute) and 100 lookalikes, measured once (zh 0.535, en 0.481) before round L.
#[test]
fn sixth_tuning_sets_meet_the_layer_one_goals() {
    for lang in ["zh", "en"] {
        assert_layer_one_goals("tuning6", lang, 260, 100);
    }
}

/// Tuning set 7 (`tests/safety/tuning7/`): 260 explicit messages a language (abuse happening
/// now, harm to others and medical concern, suicide concern) and 100 lookalikes, measured once
/// (zh 0.627, en 0.604) before round M.
#[test]
fn seventh_tuning_sets_meet_the_layer_one_goals() {
    for lang in ["zh", "en"] {
        assert_layer_one_goals("tuning7", lang, 260, 100);
    }
}

/// Tuning set 8 (`tests/safety/tuning8/`): 100 suicide messages a language (70 acute: a last
/// message, a goodbye sent, standing somewhere high, pills in hand; 30 concern) and 60
/// lookalikes, measured once (zh 0.490, en 0.610) before round N.
#[test]
fn eighth_tuning_sets_meet_the_layer_one_goals() {
    for lang in ["zh", "en"] {
        assert_layer_one_goals("tuning8", lang, 100, 60);
    }
}

/// Tuning set 9 (`tests/safety/tuning9/`): suicide again, Chinese first (100 zh and 60 en
/// explicit, 70 % acute; 60 and 40 lookalikes), measured once (zh 0.670, en 0.683) before
/// round O.
#[test]
fn ninth_tuning_sets_meet_the_layer_one_goals() {
    assert_layer_one_goals("tuning9", "zh", 100, 60);
    assert_layer_one_goals("tuning9", "en", 60, 40);
}

/// The hyperbole set (`tests/safety/hyperbole_die/`): words of dying in everyday talk (150
/// lookalikes a language: 好想死 over three reports due, "i want to die" over a meme sent to the
/// family chat) and 50 real messages a language in the same words, by a helper who read nothing
/// here, measured once (zh recall 0.80 with 22 % false alarms, en 0.76 with 18 %) before the
/// hyperbole deferring contexts and the `*.suicide.broad_p*` rules.
#[test]
fn the_hyperbole_sets_meet_the_layer_one_goals() {
    for lang in ["zh", "en"] {
        assert_layer_one_goals("hyperbole_die", lang, 50, 150);
    }
}

/// The first blind set (`tests/safety/blind/`): 160 explicit messages and 60 lookalikes a
/// language by another author, kept apart until round I read its misses (2026-11-30). A
/// tuning set since; blind set 4 (never read, measured by the CLI's figures test) is the
/// honest figure.
#[test]
fn the_first_blind_sets_meet_the_layer_one_goals_since_round_i_read_them() {
    for lang in ["zh", "en"] {
        assert_layer_one_goals("blind", lang, 160, 60);
    }
}

/// False alarms on `tests/safety/<dir>/<lang>.tsv` stay at or under 0.02 on its everyday
/// messages and 0.10 on its lookalikes; the set must hold at least the given numbers of each.
fn assert_few_false_alarms(dir: &str, min_everyday: usize, min_lookalike: usize) {
    for lang in ["zh", "en"] {
        let figures = figures_of(dir, lang);
        let group = |name: &str| figures.groups.iter().find(|g| g.group == name).unwrap();
        let (everyday, lookalike) = (group("everyday"), group("lookalike"));
        assert!(
            everyday.safe >= min_everyday,
            "{dir}/{lang}: only {} everyday messages",
            everyday.safe
        );
        assert!(
            lookalike.safe >= min_lookalike,
            "{dir}/{lang}: only {} lookalikes",
            lookalike.safe
        );
        let wrong: Vec<String> = figures
            .outcomes
            .iter()
            .filter(|o| !o.correct)
            .map(|o| format!("line {} {} -> {:?}", o.message.line, o.message.text, o.got.rule))
            .collect();
        let rate = |false_alarms: usize, safe: usize| false_alarms as f64 / safe.max(1) as f64;
        assert!(
            rate(everyday.false_alarms, everyday.safe) <= 0.02
                && rate(lookalike.false_alarms, lookalike.safe) <= 0.10,
            "{dir}/{lang}: {} false alarms on everyday messages, {} on lookalikes:\n{}",
            everyday.false_alarms,
            lookalike.false_alarms,
            wrong.join("\n")
        );
    }
}

/// The everyday sets (`tests/safety/everyday/`): 300+ ordinary life-coach messages a language
/// (goals, habits, work, sleep, relationships, mood, tiredness), written without reading the
/// rules, and batch D's lookalikes (big wishes in risk-adjacent words: 彻底改变, "for good").
#[test]
fn everyday_messages_raise_almost_no_false_alarms() {
    assert_few_false_alarms("everyday", 300, 40);
}

/// Everyday set 2 (`tests/safety/everyday2/`): 500 ordinary messages and 200 lookalikes a
/// language (minor illness, parenting, exes, driving, sport, true crime, a nurse's day),
/// written without reading the rules and measured once before round K's false alarms were
/// read and mended (zh 3 / 14, en 2 / 12).
#[test]
fn the_second_everyday_sets_raise_almost_no_false_alarms() {
    assert_few_false_alarms("everyday2", 500, 200);
}

/// Everyday set 3 (`tests/safety/everyday3/`): 300 ordinary messages and 200 lookalikes a
/// language in the words a crisis screen looks for (farewells, heights and water, pills,
/// blades, plans for tonight), written without reading the rules and measured once on rounds
/// K–O's rules (zh 3 / 8, en 0 / 8) before its false alarms were read and mended.
#[test]
fn the_third_everyday_sets_raise_almost_no_false_alarms() {
    assert_few_false_alarms("everyday3", 300, 200);
}

/// Everyday set 4 (`tests/safety/everyday4/`): 500 messages a language as people answer a
/// coach — exercises and body scans, habits that fail, work and money stress, grief, ordinary
/// health, low moods — written without reading the rules and measured once after everyday set
/// 3's mends (zh 5, en 4 false alarms) before they were read and mended.
#[test]
fn the_fourth_everyday_sets_raise_almost_no_false_alarms() {
    assert_few_false_alarms("everyday4", 500, 0);
}

/// Answers to the app's own protocol questions (`tests/safety/protocol_answers/`): 400 a
/// language, honest and often dark (the anti-vision, the pain one has learned to live with),
/// none in danger; written without reading the rules and measured once (zh 3, en 3 false
/// alarms) before they were read and mended.
#[test]
fn answers_to_the_apps_own_protocol_questions_raise_almost_no_false_alarms() {
    assert_few_false_alarms("protocol_answers", 400, 0);
}

/// Everyday set 5 (`tests/safety/everyday5/`): 300 long messages a language (four to ten
/// sentences poured out at the end of a day), written without reading the rules and measured
/// once on rounds K–O's rules (zh 16, en 21 false alarms: 5 % and 7 %) before they were read
/// and mended.
#[test]
fn long_everyday_messages_raise_almost_no_false_alarms() {
    assert_few_false_alarms("everyday5", 300, 0);
}

/// Everyday set 7 (`tests/safety/everyday7`): 200 long safe messages a language near the words
/// of care — a clinician's shift, an emergency told as over, sparring, caring for a parent, a
/// past hard time — by a helper who read nothing here, measured once (zh 27, en 21 false alarms:
/// 13.5 % and 10.5 %), then read and mended, mostly by the deferring contexts.
#[test]
fn long_messages_near_the_words_of_care_raise_almost_no_false_alarms() {
    assert_few_false_alarms("everyday7", 200, 0);
}

/// Explicit recall and lookalike false alarms of a set kept apart (`tests/safety/<dir>/`),
/// counted without printing a line of it: nobody tuning the screen reads those sets.
fn kept_apart(dir: &str, lang: &str) -> (usize, usize, usize, usize) {
    let figures = figures_of(dir, lang);
    let group = |name: &str| figures.groups.iter().find(|g| g.group == name).unwrap().clone();
    let (explicit, lookalike) = (group("explicit"), group("lookalike"));
    (explicit.detected, explicit.risky, lookalike.false_alarms, lookalike.safe)
}

/// The fresh sets kept apart (docs/safety.md, "The learned detector"): what the screen (rules
/// and the learned detector's questions) flags on them, at least as much as measured when the
/// detector landed — issue #28's goal of 0.95 where it was met — and at most 0.10 false alarms
/// on their lookalikes.
#[test]
fn the_sets_kept_apart_keep_the_recall_measured_when_the_learned_detector_landed() {
    let floors: [(&str, usize, usize); 11] = [
        ("blind3", 195, 186),
        ("blind4", 199, 191),
        ("blind5", 196, 193),
        ("blind6", 197, 193),
        ("blind7", 195, 195),
        ("blind8", 192, 191),
        ("blind9", 195, 193),
        ("blind10", 192, 187),
        ("blind11", 196, 187),
        ("blind12", 192, 194),
        ("blind13", 196, 195),
    ];

    for (dir, zh, en) in floors {
        for (lang, floor) in [("zh", zh), ("en", en)] {
            let (detected, risky, alarms, safe) = kept_apart(dir, lang);
            assert_eq!((risky, safe), (200, 80), "{dir}/{lang}: the set changed");
            assert!(detected >= floor, "{dir}/{lang}: explicit {detected}/200, was {floor}/200");
            assert!(alarms * 10 <= safe, "{dir}/{lang}: lookalike false alarms {alarms}/{safe}");
            // Issue #28's goal: in Chinese on every set, in English on the two written for the
            // last weights and measured once (the older ones stand at 0.930-0.975).
            if lang == "zh" || dir == "blind12" || dir == "blind13" {
                assert!(detected * 100 >= 95 * risky, "{dir}/{lang}: explicit {detected}/200");
            }
        }
    }
}

/// Everyday set 8 (`tests/safety/everyday8/`, never trained on): short openers a person sends
/// a life coach. The rules raise at most one notice on them; the learned detector asks the
/// model check about a few (each one call, no notice unless the model agrees): at most as many
/// as when it landed.
#[test]
fn a_life_coachs_openers_raise_no_notice_and_ask_the_model_about_few() {
    for (lang, most_asked) in [("zh", 4), ("en", 5)] {
        let figures = figures_of("everyday8", lang);
        let everyday = figures.groups.iter().find(|g| g.group == "everyday").unwrap();
        assert_eq!(everyday.safe, 40, "{lang}");
        let notices = everyday.false_alarms - everyday.false_alarms_learned;
        let asked: Vec<&str> = figures
            .outcomes
            .iter()
            .filter(|o| o.got.learned.is_some())
            .map(|o| o.message.text.as_str())
            .collect();
        assert!(notices <= 1, "{lang}: {notices} notices");
        assert!(asked.len() <= most_asked, "{lang}: {} asked: {asked:#?}", asked.len());
    }
}
