//! The data-driven place list (`places.tsv` beside this file): what a person types, in
//! Chinese (Simplified and Traditional), English or pinyin, and what it must resolve to,
//! against the embedded gazetteer. Each line is `query<TAB>expected`, where expected is
//! `= Place, Region, Country` (one place, confirmed back like this), `? A | B | …` (the person
//! is asked; the candidates start with these, in this order) or `!` (not found).

use super::*;

static PLACES: &str = include_str!("places.tsv");

fn actual(query: &str) -> String {
    match lookup(query) {
        Lookup::Found(p) => format!("= {}", p.confirmation_en()),
        Lookup::Ambiguous(ps) => {
            let names: Vec<String> = ps.iter().map(Place::confirmation_en).collect();
            format!("? {}", names.join(" | "))
        }
        Lookup::NotFound { .. } => "!".into(),
    }
}

fn matches(expected: &str, got: &str) -> bool {
    match (expected.strip_prefix("? "), got.strip_prefix("? ")) {
        (Some(want), Some(have)) => {
            let have: Vec<&str> = have.split(" | ").collect();
            let want: Vec<&str> = want.split(" | ").collect();
            have.len() >= want.len() && have[..want.len()] == want[..]
        }
        _ => expected == got,
    }
}

#[test]
fn every_listed_place_resolves_as_expected() {
    let mut cases = 0;
    let mut wrong = Vec::new();
    for line in PLACES.lines().filter(|l| !l.trim().is_empty() && !l.starts_with('#')) {
        let (query, expected) = line.split_once('\t').expect("query<TAB>expected");
        cases += 1;
        let got = actual(query);
        if !matches(expected.trim(), &got) {
            wrong.push(format!("{query}\n  expected {expected}\n  got      {got}"));
        }
    }
    assert!(cases >= 100, "the list holds {cases} places, at least 100 are wanted");
    assert!(
        wrong.is_empty(),
        "{} of {cases} places resolve otherwise:\n{}",
        wrong.len(),
        wrong.join("\n")
    );
}

#[test]
fn a_unique_place_is_confirmed_with_its_country_in_both_languages() {
    let Lookup::Found(p) = lookup("Auckland") else { panic!("Auckland") };
    assert_eq!(p.confirmation_en(), "Auckland, New Zealand");
    assert_eq!(p.confirmation_zh(), "奥克兰，新西兰");
    let Lookup::Found(p) = lookup("苏州") else { panic!("苏州") };
    assert_eq!(p.confirmation_zh(), "苏州市，江苏省，中国");
}
