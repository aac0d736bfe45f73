//! The embedded gazetteer file (`data/gazetteer.tsv.zz`, built by scripts/gen-gazetteer.py):
//! inflated once, on the first lookup, and indexed by the hash of each name's search key.
//! The text stays as it is (one line per place) and a place is parsed only when a lookup
//! returns it, so the loaded gazetteer costs the text plus 16 bytes a name. Matching a query
//! is `mod.rs`'s business.

use std::collections::HashMap;
use std::hash::{DefaultHasher, Hash, Hasher};
use std::sync::OnceLock;

use super::Place;
use super::fold::key;

static DATA: &[u8] = include_bytes!("../../data/gazetteer.tsv.zz");

/// The inflated text, where each place line is, and every name's key hash → place.
pub(crate) struct Gazetteer {
    text: String,
    /// Byte range of each place's line in `text`.
    lines: Vec<(u32, u32)>,
    /// (hash of a search key, place number), sorted.
    index: Vec<(u64, u32)>,
    /// Country code → (English, Chinese) country name.
    countries: HashMap<String, (String, String)>,
    /// Old id of a Chinese division that changed code → its id now (`#moved` lines), so a
    /// `place_id` stored before still resolves.
    moved: HashMap<String, String>,
}

/// The gazetteer, loaded on first use. `None` only if the embedded file is damaged, which a
/// test rules out.
pub(crate) fn gazetteer() -> Option<&'static Gazetteer> {
    static CELL: OnceLock<Option<Gazetteer>> = OnceLock::new();
    CELL.get_or_init(load).as_ref()
}

fn load() -> Option<Gazetteer> {
    let bytes = miniz_oxide::inflate::decompress_to_vec_zlib(DATA).ok()?;
    parse(String::from_utf8(bytes).ok()?)
}

pub(crate) fn hash_key(key: &str) -> u64 {
    let mut h = DefaultHasher::new();
    key.hash(&mut h);
    h.finish()
}

fn parse(text: String) -> Option<Gazetteer> {
    let mut lines = Vec::with_capacity(40_000);
    let mut index = Vec::with_capacity(120_000);
    let mut countries = HashMap::new();
    let mut moved = HashMap::new();
    let mut start = 0usize;
    for line in text.split_inclusive('\n') {
        let at = start;
        start += line.len();
        let line = line.trim_end_matches('\n');
        if let Some(country) = line.strip_prefix("#country\t") {
            let (cc, names) = country.split_once('\t')?;
            let (en, zh) = names.split_once('\t').unwrap_or((names, ""));
            countries.insert(cc.to_string(), (en.to_string(), zh.to_string()));
            continue;
        }
        if let Some(ids) = line.strip_prefix("#moved\t") {
            let (old, new) = ids.split_once('\t')?;
            moved.insert(old.to_string(), new.to_string());
            continue;
        }
        if line.starts_with('#') || line.is_empty() {
            continue;
        }
        let place = parse_line(line)?;
        let number = u32::try_from(lines.len()).ok()?;
        let mut hashes: Vec<u64> = place.names().map(|n| hash_key(&key(n))).collect();
        hashes.sort_unstable();
        hashes.dedup();
        index.extend(hashes.into_iter().map(|h| (h, number)));
        lines.push((u32::try_from(at).ok()?, u32::try_from(at + line.len()).ok()?));
    }
    index.sort_unstable();
    Some(Gazetteer { text, lines, index, countries, moved })
}

impl Gazetteer {
    /// Places one of whose names has this search key (hash matches checked against the names).
    pub fn with_key(&self, key_text: &str) -> Vec<Place> {
        let h = hash_key(key_text);
        let from = self.index.partition_point(|&(k, _)| k < h);
        self.index[from..]
            .iter()
            .take_while(|&&(k, _)| k == h)
            .filter_map(|&(_, n)| self.place(n as usize))
            .filter(|p| p.names().any(|name| key(name) == key_text))
            .collect()
    }

    pub fn by_id(&self, id: &str) -> Option<Place> {
        let id = self.moved.get(id).map_or(id, String::as_str);
        let wanted = format!("{id}\t");
        (0..self.lines.len())
            .find(|&n| self.line(n).starts_with(&wanted))
            .and_then(|n| self.place(n))
    }

    pub fn country_name(&self, cc: &str) -> Option<&str> {
        self.countries.get(cc).map(|(en, _)| en.as_str())
    }

    #[cfg(test)]
    pub fn len(&self) -> usize {
        self.lines.len()
    }

    pub fn place(&self, n: usize) -> Option<Place> {
        let mut place = parse_line(self.line(n))?;
        if let Some((en, zh)) = self.countries.get(&place.country) {
            place.country_en.clone_from(en);
            place.country_zh.clone_from(zh);
        }
        Some(place)
    }

    fn line(&self, n: usize) -> &str {
        self.lines.get(n).map_or("", |&(a, b)| &self.text[a as usize..b as usize])
    }
}

fn list(field: &str) -> Vec<String> {
    field.split('|').filter(|s| !s.is_empty()).map(str::to_string).collect()
}

fn parse_line(line: &str) -> Option<Place> {
    let f: Vec<&str> = line.split('\t').collect();
    let [id, en, zh, keys, cc, admin_en, admin_zh, lat, lon, tz, pop] = f.as_slice() else {
        return None;
    };
    Some(Place {
        id: (*id).to_string(),
        name_en: (*en).to_string(),
        name_zh: (*zh).to_string(),
        other_names: list(keys),
        country: (*cc).to_string(),
        country_en: String::new(),
        country_zh: String::new(),
        admin_en: list(admin_en),
        admin_zh: list(admin_zh),
        latitude: lat.parse().ok()?,
        longitude: lon.parse().ok()?,
        timezone: (*tz).to_string(),
        population: pop.parse().ok()?,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_embedded_file_loads_whole() {
        let g = gazetteer().expect("the embedded gazetteer parses");
        assert!(g.len() > 36_000, "{}", g.len());
        assert_eq!(g.country_name("CN"), Some("China"));
        assert_eq!(g.by_id("cn652923").unwrap().name_zh, "库车市", "库车县 became a city");
        for n in 0..g.len() {
            let p = g.place(n).unwrap();
            assert!(p.timezone.parse::<chrono_tz::Tz>().is_ok(), "{} {}", p.id, p.timezone);
            assert!((-180.0..=180.0).contains(&p.longitude), "{}", p.id);
        }
    }

    #[test]
    fn a_malformed_line_is_refused_not_half_read() {
        assert!(parse("cn1\tA\t\t\tCN\t\t\tnot-a-number\t1\tAsia/Shanghai\t0\n".into()).is_none());
        assert!(parse("too\tfew\n".into()).is_none());
    }
}
