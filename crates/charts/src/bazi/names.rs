//! English names beside the Chinese ones tyme4rs gives: the five elements, yin/yang and the
//! twelve animals, all indexed the way tyme4rs indexes them. No chart logic here.

/// Five elements in tyme4rs order (木火土金水).
pub(crate) const ELEMENTS_EN: [&str; 5] = ["wood", "fire", "earth", "metal", "water"];
pub(crate) const ELEMENTS_ZH: [&str; 5] = ["木", "火", "土", "金", "水"];

/// Animals of the twelve earthly branches, 子 (rat) first.
pub(crate) const ANIMALS_EN: [&str; 12] = [
    "rat", "ox", "tiger", "rabbit", "dragon", "snake", "horse", "goat", "monkey", "rooster", "dog",
    "pig",
];

/// Yang for even stem indices (甲丙戊庚壬), yin for odd.
pub(crate) fn yin_yang(stem_index: usize) -> &'static str {
    if stem_index.is_multiple_of(2) { "yang" } else { "yin" }
}

#[cfg(test)]
mod tests {
    use tyme4rs::tyme::Culture;
    use tyme4rs::tyme::sixtycycle::{EarthBranch, HeavenStem};

    use super::*;

    #[test]
    fn element_order_matches_tyme4rs() {
        for (i, zh) in ELEMENTS_ZH.iter().enumerate() {
            // 甲乙 wood, 丙丁 fire, 戊己 earth, 庚辛 metal, 壬癸 water.
            let stem = HeavenStem::from_index(i as isize * 2);
            assert_eq!(stem.get_element().get_name(), *zh);
        }
    }

    #[test]
    fn animal_order_matches_tyme4rs() {
        assert_eq!(EarthBranch::from_index(0).get_zodiac().get_name(), "鼠");
        assert_eq!(EarthBranch::from_index(5).get_zodiac().get_name(), "蛇");
        assert_eq!(ANIMALS_EN[5], "snake");
        assert_eq!(EarthBranch::from_index(11).get_zodiac().get_name(), "猪");
    }
}
