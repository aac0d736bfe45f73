//! The 78-card deck assembled from the data tables: 22 major arcana in order, then the four
//! suits Ace to King. The order is part of the replay contract (a seed draws positions in
//! this list), so cards are only ever appended, never reordered.

use std::sync::LazyLock;

use serde::Serialize;

use super::major::MAJOR;
use super::minor::{MEANINGS, RANKS, SUITS};

/// A text in English and Chinese.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Text {
    pub en: String,
    pub zh: String,
}

impl Text {
    fn new(en: &str, zh: &str) -> Self {
        Self { en: en.to_owned(), zh: zh.to_owned() }
    }
}

/// One tarot card.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Card {
    /// Stable id, e.g. "the_fool", "ace_of_cups", "queen_of_swords".
    pub id: String,
    /// "major" or "minor".
    pub arcana: &'static str,
    /// Suit id for minor arcana ("wands", "cups", "swords", "pentacles").
    pub suit: Option<&'static str>,
    /// 0–21 for the major arcana; 1 (Ace) – 14 (King) within a suit.
    pub number: u8,
    pub name: Text,
    pub upright: Text,
    pub reversed: Text,
}

static DECK: LazyLock<Vec<Card>> = LazyLock::new(build);

/// The full deck in canonical order.
pub fn deck() -> &'static [Card] {
    &DECK
}

fn build() -> Vec<Card> {
    let mut cards = Vec::with_capacity(78);
    for (n, (id, en, zh, up_en, up_zh, rev_en, rev_zh)) in MAJOR.iter().enumerate() {
        cards.push(Card {
            id: (*id).to_owned(),
            arcana: "major",
            suit: None,
            number: n as u8,
            name: Text::new(en, zh),
            upright: Text::new(up_en, up_zh),
            reversed: Text::new(rev_en, rev_zh),
        });
    }
    for ((suit, suit_en, suit_zh, _), meanings) in SUITS.iter().zip(MEANINGS.iter()) {
        for (n, ((rank, rank_en, rank_zh), (up_en, up_zh, rev_en, rev_zh))) in
            RANKS.iter().zip(meanings.iter()).enumerate()
        {
            cards.push(Card {
                id: format!("{rank}_of_{suit}"),
                arcana: "minor",
                suit: Some(suit),
                number: n as u8 + 1,
                name: Text::new(&format!("{rank_en} of {suit_en}"), &format!("{suit_zh}{rank_zh}")),
                upright: Text::new(up_en, up_zh),
                reversed: Text::new(rev_en, rev_zh),
            });
        }
    }
    cards
}

#[cfg(test)]
mod tests {
    use std::collections::HashSet;

    use super::*;

    #[test]
    fn seventy_eight_unique_cards() {
        let d = deck();
        assert_eq!(d.len(), 78);
        assert_eq!(d.iter().filter(|c| c.arcana == "major").count(), 22);
        let ids: HashSet<_> = d.iter().map(|c| c.id.as_str()).collect();
        assert_eq!(ids.len(), 78);
        let zh: HashSet<_> = d.iter().map(|c| c.name.zh.as_str()).collect();
        assert_eq!(zh.len(), 78);
        for c in d {
            for t in [&c.name, &c.upright, &c.reversed] {
                assert!(!t.en.is_empty() && !t.zh.is_empty(), "{}", c.id);
            }
        }
    }

    #[test]
    fn canonical_order_and_names() {
        let d = deck();
        assert_eq!(d[0].name, Text::new("The Fool", "愚人"));
        assert_eq!(d[21].id, "the_world");
        assert_eq!(d[22].id, "ace_of_wands");
        assert_eq!(d[22].name.zh, "权杖王牌");
        assert_eq!(d[22 + 14 + 1].name, Text::new("Two of Cups", "圣杯二"));
        assert_eq!(d[77].id, "king_of_pentacles");
        assert_eq!(d[77].number, 14);
    }
}
