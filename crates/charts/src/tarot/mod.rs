//! Seeded tarot draws: a spread of 1 card or 3 cards (past / present / future), each upright
//! or reversed. The same seed always gives the same draw (ChaCha8 stream, our own unbiased
//! bounded sampling, so a dependency upgrade cannot change a replay). Picking a seed when the
//! caller has none is the caller's job; this module does no IO.

mod deck;
mod major;
mod minor;

use rand_chacha::ChaCha8Rng;
use rand_chacha::rand_core::{RngCore, SeedableRng};
use serde::Serialize;
use serde_json::Value;

pub use deck::{Card, Text, deck};

use crate::ChartError;
use crate::birth::kind_of;

/// A layout of cards and what each position means.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Spread {
    /// One card: guidance on the question.
    Single,
    /// Three cards: past, present, future.
    ThreeCard,
}

impl Spread {
    /// Every spread id, as accepted by `Spread::parse`.
    pub const IDS: [&'static str; 2] = ["single", "three_card"];

    /// Parses a spread id ("single" / "three_card"; "1" and "3" are accepted too).
    pub fn parse(id: &str) -> Option<Self> {
        match id.trim() {
            "single" | "one_card" | "1" => Some(Self::Single),
            "three_card" | "three" | "past_present_future" | "3" => Some(Self::ThreeCard),
            _ => None,
        }
    }

    fn positions(self) -> &'static [(&'static str, &'static str, &'static str)] {
        match self {
            Self::Single => &[("guidance", "Guidance", "指引")],
            Self::ThreeCard => &[
                ("past", "Past", "过去"),
                ("present", "Present", "现在"),
                ("future", "Future", "未来"),
            ],
        }
    }
}

/// One card laid in a position.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct DrawnCard {
    /// Position id ("guidance", "past", "present", "future").
    pub position: &'static str,
    pub position_name: Text,
    pub card: Card,
    pub reversed: bool,
    /// The meaning that applies: upright or reversed.
    pub meaning: Text,
}

/// The result of one draw; serialises to the JSON the `draw_tarot` tool returns.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Draw {
    pub spread: Spread,
    pub seed: u64,
    pub reversals: bool,
    pub cards: Vec<DrawnCard>,
}

/// Draws `spread` from a shuffled deck seeded by `seed`. With `reversals == false` every
/// card is upright (some readers do not use reversals).
pub fn draw(spread: Spread, seed: u64, reversals: bool) -> Draw {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let full = deck();
    let mut order: Vec<usize> = (0..full.len()).collect();
    let positions = spread.positions();
    let mut cards = Vec::with_capacity(positions.len());
    for (i, (id, en, zh)) in positions.iter().enumerate() {
        // Partial Fisher–Yates: pick position i from the cards not yet drawn.
        let j = i + below(&mut rng, (order.len() - i) as u32) as usize;
        order.swap(i, j);
        let reversed = reversals && rng.next_u32() >> 31 == 1;
        let card = full[order[i]].clone();
        let meaning = if reversed { card.reversed.clone() } else { card.upright.clone() };
        cards.push(DrawnCard {
            position: id,
            position_name: Text { en: (*en).to_owned(), zh: (*zh).to_owned() },
            card,
            reversed,
            meaning,
        });
    }
    Draw { spread, seed, reversals, cards }
}

/// Draws from the `draw_tarot` tool's JSON arguments
/// `{spread?: "single"|"three_card", seed?: integer, reversals?: bool}`; `fallback_seed` is
/// used when the arguments carry no seed. Errors name the argument at fault.
pub fn draw_from_json(args: &Value, fallback_seed: u64) -> Result<Draw, ChartError> {
    let empty = serde_json::Map::new();
    let obj = match args {
        Value::Null => &empty,
        Value::Object(o) => o,
        other => {
            return Err(ChartError::invalid(
                "draw_tarot",
                format!("expected an object of arguments, got {}", kind_of(other)),
            ));
        }
    };
    let spread = match obj.get("spread") {
        None | Some(Value::Null) => Spread::Single,
        Some(Value::String(s)) => Spread::parse(s).ok_or_else(|| {
            ChartError::invalid(
                "draw_tarot.spread",
                format!("\"{s}\" is not a spread; use one of {}", Spread::IDS.join(", ")),
            )
        })?,
        Some(other) => {
            return Err(ChartError::invalid(
                "draw_tarot.spread",
                format!(
                    "expected text, got {}; use one of {}",
                    kind_of(other),
                    Spread::IDS.join(", ")
                ),
            ));
        }
    };
    let seed = match obj.get("seed") {
        None | Some(Value::Null) => fallback_seed,
        Some(Value::Number(n)) if n.as_u64().is_some() => n.as_u64().unwrap_or(fallback_seed),
        Some(Value::String(s)) if s.trim().parse::<u64>().is_ok() => {
            s.trim().parse().unwrap_or(fallback_seed)
        }
        Some(other) => {
            return Err(ChartError::invalid(
                "draw_tarot.seed",
                format!("expected a non-negative integer, got {}", kind_of(other)),
            ));
        }
    };
    let reversals = match obj.get("reversals") {
        None | Some(Value::Null) => true,
        Some(Value::Bool(b)) => *b,
        Some(other) => {
            return Err(ChartError::invalid(
                "draw_tarot.reversals",
                format!("expected true or false, got {}", kind_of(other)),
            ));
        }
    };
    Ok(draw(spread, seed, reversals))
}

/// A uniform integer in `0..bound` (bound > 0) by Lemire's multiply-and-reject method.
fn below(rng: &mut ChaCha8Rng, bound: u32) -> u32 {
    let threshold = bound.wrapping_neg() % bound;
    loop {
        let m = u64::from(rng.next_u32()) * u64::from(bound);
        if (m as u32) >= threshold {
            return (m >> 32) as u32;
        }
    }
}

#[cfg(test)]
#[path = "tests.rs"]
mod tests;
