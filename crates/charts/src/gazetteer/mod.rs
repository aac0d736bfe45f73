//! The offline gazetteer: every city of at least 15,000 people worldwide (GeoNames) and all
//! Chinese prefecture- and county-level divisions, found by Chinese or English name, with
//! coordinates and IANA time zone. What a place means for `birth_info` is `birth_place`;
//! the file format and its sources are scripts/gen-gazetteer.py and data/ATTRIBUTION.

mod data;
mod fold;

use data::{Gazetteer, gazetteer};
use fold::{full_key, is_han, key};

/// Places sharing a name closer than this to the most populous of them, in one time zone,
/// are one place for a chart: a prefecture and its seat city (喀什地区 and 喀什市), a city and
/// the county named after it (乌鲁木齐市, 乌鲁木齐县). Their longitudes differ by at most about
/// half a degree, two minutes of solar time.
const SAME_PLACE_KM: f64 = 60.0;

/// A place of a name is meant without asking only when it has at least this many times the
/// people of the next place of that name (Paris over Paris, Texas; Lagos, Nigeria over Lagos,
/// Portugal). Closer than that (Auckland and Oakland for 奥克兰, Portland in Oregon and in
/// Maine, Vancouver in Canada and in Washington) the person chooses; so too when the next
/// one's population is unknown.
const DOMINANT_RATIO: u64 = 10;

/// One place of the gazetteer.
#[derive(Debug, Clone, PartialEq)]
pub struct Place {
    /// Stable id: `cn` + the 6-digit Chinese division code, or `g` + the GeoNames id.
    pub id: String,
    pub name_en: String,
    /// Chinese name (simplified where known); empty when GeoNames lists none.
    pub name_zh: String,
    /// Further names it is found by (ASCII spelling, pinyin, other Chinese forms).
    pub other_names: Vec<String>,
    /// ISO 3166 country code.
    pub country: String,
    /// The country's name in English and in Chinese (CLDR), empty when unknown.
    pub country_en: String,
    pub country_zh: String,
    /// First-level division (province, state), then the prefecture for Chinese counties.
    pub admin_en: Vec<String>,
    /// The same in Chinese, for Chinese places (江苏省, 苏州市).
    pub admin_zh: Vec<String>,
    pub latitude: f64,
    /// Degrees east of Greenwich, west negative.
    pub longitude: f64,
    /// IANA time zone; Beijing time (`Asia/Shanghai`) for all of mainland China.
    pub timezone: String,
    /// 0 when unknown (Chinese divisions GeoNames does not list).
    pub population: u64,
}

impl Place {
    /// Every name the place is found by.
    pub(crate) fn names(&self) -> impl Iterator<Item = &str> {
        [self.name_en.as_str(), self.name_zh.as_str()]
            .into_iter()
            .chain(self.other_names.iter().map(String::as_str))
            .filter(|n| !n.is_empty())
    }

    /// `苏州市 Suzhou (江苏省 Jiangsu, China)`: enough to tell places of one name apart.
    pub fn label(&self) -> String {
        let name = if self.name_zh.is_empty() {
            self.name_en.clone()
        } else {
            format!("{} {}", self.name_zh, self.name_en)
        };
        let mut within: Vec<String> = Vec::new();
        for (i, en) in self.admin_en.iter().enumerate() {
            match self.admin_zh.get(i) {
                Some(zh) => within.push(format!("{zh} {en}")),
                None => within.push(en.clone()),
            }
        }
        within.push(if self.country_en.is_empty() {
            self.country.clone()
        } else {
            self.country_en.clone()
        });
        format!("{name} ({})", within.join(", "))
    }
}

impl Place {
    /// What a person is told back in English: `Auckland, New Zealand`,
    /// `Portland, Oregon, United States`, `Suzhou, Jiangsu, China` (the region left out when
    /// the place is named after it: `Tokyo, Japan`, `New York City, United States`).
    pub fn confirmation_en(&self) -> String {
        let mut parts = vec![self.name_en.as_str()];
        if let Some(region) = self.region(self.admin_en.first()) {
            parts.push(region);
        }
        parts.push(if self.country_en.is_empty() { &self.country } else { &self.country_en });
        parts.join(", ")
    }

    /// The same in Chinese: `奥克兰，新西兰`, `苏州市，江苏省，中国`, `波特兰，Oregon，美国`;
    /// English names where no Chinese one is known.
    pub fn confirmation_zh(&self) -> String {
        let name = if self.name_zh.is_empty() { &self.name_en } else { &self.name_zh };
        let mut parts = vec![name.as_str()];
        if let Some(region) = self.region(self.admin_zh.first().or(self.admin_en.first())) {
            parts.push(region);
        }
        parts.push(if self.country_zh.is_empty() { &self.country } else { &self.country_zh });
        parts.join("，")
    }

    /// `region`, unless the place is named after it (Tokyo in Tokyo, 北京市 in 北京市).
    fn region<'a>(&self, region: Option<&'a String>) -> Option<&'a str> {
        let region = region.filter(|r| !r.is_empty())?;
        let k = key(region);
        let named_after = key(&self.name_en).starts_with(&k)
            || [&self.name_zh, &self.country_en, &self.country_zh].iter().any(|n| key(n) == k);
        (!named_after).then_some(region.as_str())
    }
}

/// What a place name resolves to.
#[derive(Debug, Clone, PartialEq)]
pub enum Lookup {
    /// One place (or several that are the same place for a chart; the most populous).
    Found(Box<Place>),
    /// Several places of that name, most populous first.
    Ambiguous(Vec<Place>),
    /// Nothing of that name; `ignoring_qualifiers` lists the places the name alone matches
    /// when the qualifiers (`, Jiangsu`) ruled them all out.
    NotFound { ignoring_qualifiers: Vec<Place> },
}

/// Finds `query`: a place name in Chinese or English, optionally followed by qualifiers
/// separated by commas (`Suzhou, Jiangsu`, `苏州，江苏`, `London, GB`) that must each match the
/// place's province, prefecture, country code or country name. A Chinese name may also carry
/// its province or prefecture in front (`江苏苏州`, `浙江省杭州市`).
pub fn lookup(query: &str) -> Lookup {
    lookup_in(query, None)
}

/// Like [`lookup`], for a person who also gave their time zone: places of that name in
/// other zones are left out when any is in it (`London` with `Europe/London`).
pub fn lookup_in(query: &str, zone: Option<&str>) -> Lookup {
    let Some(g) = gazetteer() else { return Lookup::NotFound { ignoring_qualifiers: Vec::new() } };
    let mut parts = query.split([',', '，']).map(str::trim).filter(|p| !p.is_empty());
    let name = parts.next().unwrap_or_default();
    let qualifiers: Vec<String> = parts.map(key).collect();
    let mut found = candidates(g, &key(name));
    if found.is_empty() && qualifiers.is_empty() {
        found = split_chinese_prefix(g, name);
    }
    let mut kept: Vec<Place> =
        found.iter().filter(|p| qualifiers.iter().all(|q| qualifies(g, p, q))).cloned().collect();
    // A Chinese division of that name is meant over a town below county level (喀什市, not
    // the township 喀什乡 in Ili that GeoNames also calls 喀什).
    if kept.iter().any(is_division) {
        kept.retain(|p| p.country != "CN" || is_division(p));
    }
    // A full Chinese name typed out (沙湾市) is meant over places sharing only its short name
    // (沙湾区 in Sichuan).
    let typed = full_key(name);
    if is_han(&typed) && typed != key(name) && kept.iter().any(|p| has_full_name(p, &typed)) {
        kept.retain(|p| has_full_name(p, &typed));
    }
    if let Some(zone) = zone
        && kept.iter().any(|p| p.timezone == zone)
    {
        kept.retain(|p| p.timezone == zone);
    }
    match kept.first() {
        None => Lookup::NotFound { ignoring_qualifiers: found },
        Some(top) if kept.iter().all(|p| same_place(top, p)) => {
            Lookup::Found(Box::new(kept.swap_remove(0)))
        }
        Some(top) if dominates(top, &kept) => Lookup::Found(Box::new(kept.swap_remove(0))),
        Some(_) => Lookup::Ambiguous(kept),
    }
}

/// Whether `top` (the most populous) has far more people than every other place of the name
/// that is not the same place: [`DOMINANT_RATIO`] times the next, whose population is known.
fn dominates(top: &Place, kept: &[Place]) -> bool {
    kept.iter()
        .filter(|p| !same_place(top, p))
        .all(|p| p.population > 0 && top.population >= p.population.saturating_mul(DOMINANT_RATIO))
}

/// The place with this id (as `Place::id`).
pub fn place_by_id(id: &str) -> Option<Place> {
    let g = gazetteer()?;
    g.by_id(id.trim())
}

/// Places carrying `key`, most populous first.
fn candidates(g: &Gazetteer, key: &str) -> Vec<Place> {
    let mut out = g.with_key(key);
    out.sort_by(|a, b| b.population.cmp(&a.population).then_with(|| a.id.cmp(&b.id)));
    out
}

/// `江苏苏州` → the places named 苏州 in a division named 江苏 (first split that finds any).
fn split_chinese_prefix(g: &Gazetteer, name: &str) -> Vec<Place> {
    let name: String = name.chars().filter(|c| !c.is_whitespace()).collect();
    if !is_han(&name) {
        return Vec::new();
    }
    let chars: Vec<(usize, char)> = name.char_indices().collect();
    for &(at, _) in chars.iter().skip(2).take(chars.len().saturating_sub(3)) {
        let (prefix, rest) = name.split_at(at);
        let qualifier = key(prefix);
        let found: Vec<_> =
            candidates(g, &key(rest)).into_iter().filter(|p| qualifies(g, p, &qualifier)).collect();
        if !found.is_empty() {
            return found;
        }
    }
    Vec::new()
}

fn qualifies(g: &Gazetteer, place: &Place, qualifier: &str) -> bool {
    let country = g.country_name(&place.country).unwrap_or_default();
    [place.country.as_str(), country, place.country_zh.as_str()]
        .into_iter()
        .chain(place.admin_en.iter().map(String::as_str))
        .chain(place.admin_zh.iter().map(String::as_str))
        .any(|name| !name.is_empty() && key(name) == qualifier)
}

fn has_full_name(p: &Place, typed: &str) -> bool {
    p.names().any(|n| full_key(n) == typed)
}

/// A Chinese prefecture- or county-level division (not a GeoNames town).
fn is_division(p: &Place) -> bool {
    p.id.starts_with("cn")
}

fn same_place(a: &Place, b: &Place) -> bool {
    a.timezone == b.timezone && distance_km(a, b) <= SAME_PLACE_KM
}

/// Great-circle distance (haversine, mean Earth radius).
fn distance_km(a: &Place, b: &Place) -> f64 {
    let (p1, p2) = (a.latitude.to_radians(), b.latitude.to_radians());
    let dp = p2 - p1;
    let dl = (b.longitude - a.longitude).to_radians();
    let h = (dp / 2.0).sin().powi(2) + p1.cos() * p2.cos() * (dl / 2.0).sin().powi(2);
    12_742.0 * h.sqrt().asin()
}

#[cfg(test)]
mod tests;
