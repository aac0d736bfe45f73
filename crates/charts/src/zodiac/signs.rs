//! The twelve tropical signs: ids (lowercase English), display names (zh, en), element and
//! modality. Which sign a body is in is `Sign::of`; everything else is lookup.

use serde_json::{Value, json};

const IDS: [&str; 12] = [
    "aries",
    "taurus",
    "gemini",
    "cancer",
    "leo",
    "virgo",
    "libra",
    "scorpio",
    "sagittarius",
    "capricorn",
    "aquarius",
    "pisces",
];
const NAMES_EN: [&str; 12] = [
    "Aries",
    "Taurus",
    "Gemini",
    "Cancer",
    "Leo",
    "Virgo",
    "Libra",
    "Scorpio",
    "Sagittarius",
    "Capricorn",
    "Aquarius",
    "Pisces",
];
const NAMES_ZH: [&str; 12] = [
    "白羊座",
    "金牛座",
    "双子座",
    "巨蟹座",
    "狮子座",
    "处女座",
    "天秤座",
    "天蝎座",
    "射手座",
    "摩羯座",
    "水瓶座",
    "双鱼座",
];
/// Elements cycle fire, earth, air, water starting from Aries.
const ELEMENTS: [(&str, &str); 4] =
    [("fire", "火象"), ("earth", "土象"), ("air", "风象"), ("water", "水象")];
/// Modalities cycle cardinal, fixed, mutable starting from Aries.
const MODALITIES: [(&str, &str); 3] =
    [("cardinal", "本位"), ("fixed", "固定"), ("mutable", "变动")];

/// One of the twelve signs, 0 = Aries.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Sign(usize);

impl Sign {
    /// The sign holding an ecliptic longitude in degrees (any real; wrapped into 0..360).
    pub fn of(longitude: f64) -> Self {
        let lon = crate::astro::normalize_degrees(longitude);
        Self(((lon / 30.0).floor() as usize).min(11))
    }

    /// Lowercase English id, e.g. "taurus".
    pub fn id(self) -> &'static str {
        IDS[self.0]
    }

    pub fn display(self) -> Value {
        json!({"zh": NAMES_ZH[self.0], "en": NAMES_EN[self.0]})
    }

    pub fn element(self) -> Value {
        let (en, zh) = ELEMENTS[self.0 % 4];
        json!({"en": en, "zh": zh})
    }

    pub fn modality(self) -> Value {
        let (en, zh) = MODALITIES[self.0 % 3];
        json!({"en": en, "zh": zh})
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn slices_of_thirty_degrees_from_the_equinox() {
        assert_eq!(Sign::of(0.0).id(), "aries");
        assert_eq!(Sign::of(29.999).id(), "aries");
        assert_eq!(Sign::of(30.0).id(), "taurus");
        assert_eq!(Sign::of(359.99).id(), "pisces");
        assert_eq!(Sign::of(-0.5).id(), "pisces");
        assert_eq!(Sign::of(360.0).id(), "aries");
    }

    #[test]
    fn display_element_and_modality() {
        let leo = Sign::of(125.0);
        assert_eq!(leo.display(), json!({"zh": "狮子座", "en": "Leo"}));
        assert_eq!(leo.element()["en"], "fire");
        assert_eq!(leo.modality()["en"], "fixed");
        let pisces = Sign::of(345.0);
        assert_eq!(pisces.element()["zh"], "水象");
        assert_eq!(pisces.modality()["en"], "mutable");
    }
}
