use std::collections::HashSet;

use serde_json::json;

use super::*;

fn ids(d: &Draw) -> Vec<(String, bool)> {
    d.cards.iter().map(|c| (c.card.id.clone(), c.reversed)).collect()
}

#[test]
fn same_seed_same_draw() {
    for seed in [0, 1, 42, u64::MAX] {
        assert_eq!(draw(Spread::ThreeCard, seed, true), draw(Spread::ThreeCard, seed, true));
    }
}

#[test]
fn different_seeds_differ() {
    let draws: HashSet<_> = (0..20).map(|s| ids(&draw(Spread::ThreeCard, s, true))).collect();
    // 20 seeds over 78*77*76*8 outcomes: all distinct in practice; demand most of them.
    assert!(draws.len() >= 19, "{}", draws.len());
}

#[test]
fn replay_is_pinned() {
    // The exact cards seed 20260101 draws, recorded when the algorithm was written. If this
    // changes, every stored conversation replays with different cards: do not "fix" the
    // expectation, fix the change (deck order, sampling, or the ChaCha stream).
    assert_eq!(
        ids(&draw(Spread::ThreeCard, 20_260_101, true)),
        [
            ("knight_of_cups".to_owned(), true),
            ("ace_of_wands".to_owned(), false),
            ("the_tower".to_owned(), true),
        ]
    );
}

#[test]
fn three_card_spread_has_past_present_future_and_no_repeats() {
    for seed in 0..200 {
        let d = draw(Spread::ThreeCard, seed, true);
        let positions: Vec<_> = d.cards.iter().map(|c| c.position).collect();
        assert_eq!(positions, ["past", "present", "future"]);
        let unique: HashSet<_> = d.cards.iter().map(|c| &c.card.id).collect();
        assert_eq!(unique.len(), 3, "seed {seed}");
        assert_eq!(d.cards[0].position_name.zh, "过去");
    }
}

#[test]
fn reversals_happen_about_half_the_time_and_can_be_turned_off() {
    let reversed = (0..400).filter(|s| draw(Spread::Single, *s, true).cards[0].reversed).count();
    assert!((120..=280).contains(&reversed), "{reversed}");
    assert!((0..100).all(|s| !draw(Spread::Single, s, false).cards[0].reversed));
}

#[test]
fn meaning_follows_orientation() {
    for seed in 0..50 {
        let c = &draw(Spread::Single, seed, true).cards[0];
        let expected = if c.reversed { &c.card.reversed } else { &c.card.upright };
        assert_eq!(&c.meaning, expected);
    }
}

#[test]
fn every_card_can_be_drawn() {
    let seen: HashSet<_> =
        (0..3000).map(|s| draw(Spread::Single, s, false).cards[0].card.id.clone()).collect();
    assert_eq!(seen.len(), 78);
}

#[test]
fn json_arguments() {
    let d = draw_from_json(&json!({"spread": "three_card", "seed": 7}), 99).unwrap();
    assert_eq!(d, draw(Spread::ThreeCard, 7, true));
    let d = draw_from_json(&json!({}), 99).unwrap();
    assert_eq!(d, draw(Spread::Single, 99, true));
    let d = draw_from_json(&json!({"seed": "12", "reversals": false}), 0).unwrap();
    assert_eq!(d.seed, 12);
    assert!(!d.reversals);

    let e = draw_from_json(&json!({"spread": "celtic_cross"}), 0).unwrap_err();
    assert_eq!(e.field(), Some("draw_tarot.spread"));
    assert!(e.to_string().contains("single, three_card"), "{e}");
    let e = draw_from_json(&json!({"seed": -3}), 0).unwrap_err();
    assert_eq!(e.field(), Some("draw_tarot.seed"));
    let e = draw_from_json(&json!({"reversals": "yes"}), 0).unwrap_err();
    assert_eq!(e.field(), Some("draw_tarot.reversals"));
}

#[test]
fn serialises_for_the_tool_result() {
    let v = serde_json::to_value(draw(Spread::ThreeCard, 5, true)).unwrap();
    assert_eq!(v["spread"], "three_card");
    assert_eq!(v["seed"], 5);
    assert_eq!(v["cards"].as_array().unwrap().len(), 3);
    assert!(v["cards"][0]["card"]["name"]["zh"].is_string());
    assert!(v["cards"][0]["meaning"]["en"].is_string());
}

#[test]
fn below_is_in_range() {
    let mut rng = ChaCha8Rng::seed_from_u64(3);
    for bound in [1, 2, 3, 77, 78] {
        for _ in 0..200 {
            assert!(below(&mut rng, bound) < bound);
        }
    }
}
