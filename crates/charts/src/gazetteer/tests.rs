//! Lookups a person would make, against the embedded data.

use super::*;

fn found(query: &str) -> Place {
    match lookup(query) {
        Lookup::Found(p) => *p,
        other => panic!("{query}: expected one place, got {other:?}"),
    }
}

fn ambiguous(query: &str) -> Vec<String> {
    match lookup(query) {
        Lookup::Ambiguous(places) => places.iter().map(|p| p.id.clone()).collect(),
        other => panic!("{query}: expected several places, got {other:?}"),
    }
}

#[test]
fn a_city_is_found_by_its_english_and_chinese_names() {
    for q in ["Hangzhou", "hangzhou", "杭州", "杭州市", " Hangzhou "] {
        let p = found(q);
        assert_eq!((p.id.as_str(), p.name_zh.as_str()), ("cn330100", "杭州市"), "{q}");
        assert_eq!(p.timezone, "Asia/Shanghai");
        assert!((p.longitude - 120.16).abs() < 0.05, "{}", p.longitude);
    }
    assert_eq!(found("Ürümqi").id, found("乌鲁木齐").id);
    assert_eq!(found("Urumqi").id, "cn650100");
    // 西安区 are districts in Jilin and Heilongjiang: the name alone is ambiguous.
    assert_eq!(ambiguous("Xi'an")[0], "cn610100");
    assert_eq!(found("Xi'an, Shaanxi").id, found("西安, 陕西").id);
    assert_eq!(found("Xian, Shaanxi").id, found("陕西西安").id);
}

#[test]
fn western_china_is_on_beijing_time_at_its_own_longitude() {
    let kashgar = found("Kashgar");
    assert_eq!(kashgar.timezone, "Asia/Shanghai");
    assert!((kashgar.longitude - 75.99).abs() < 0.05, "{}", kashgar.longitude);
    assert_eq!(found("喀什").id, kashgar.id, "喀什地区 and 喀什市 are one place for a chart");
    assert_eq!(found("Kashi").id, kashgar.id);
}

#[test]
fn county_level_divisions_are_there_with_their_prefecture() {
    let p = found("上城区");
    assert_eq!(p.admin_zh, vec!["浙江省", "杭州市"]);
    assert_eq!(p.admin_en, vec!["Zhejiang", "Hangzhou"]);
    let gulou = ambiguous("鼓楼区");
    assert!(gulou.len() >= 4, "{gulou:?}");
    assert_eq!(found("鼓楼区, 南京").id, "cn320106");
    assert_eq!(found("鼓楼, 南京市").id, "cn320106");
    assert_eq!(found("Gulou, Fuzhou").id, "cn350102");
}

#[test]
fn a_shared_name_is_ambiguous_until_qualified() {
    let suzhou = ambiguous("Suzhou");
    assert_eq!(&suzhou[..2], ["cn320500", "cn341300"], "most populous first");
    assert_eq!(found("Suzhou, Jiangsu").id, "cn320500");
    assert_eq!(found("suzhou，安徽").id, "cn341300");
    assert_eq!(found("苏州").id, "cn320500", "苏州 and 宿州 differ in Chinese");
    assert_eq!(found("江苏苏州").id, "cn320500");
    assert_eq!(found("浙江省杭州市").id, "cn330100");
    // London, England has over twenty times the people of London, Ontario: it is meant.
    assert_eq!(found("London").confirmation_en(), "London, England, United Kingdom");
    assert_eq!(found("London, GB").timezone, "Europe/London");
    assert_eq!(found("London, United Kingdom").id, found("London, England").id);
    assert_eq!(found("London, Ontario").timezone, "America/Toronto");
}

#[test]
fn cities_worldwide_carry_their_zone() {
    assert_eq!(found("New York City").timezone, "America/New_York");
    assert_eq!(found("东京").timezone, "Asia/Tokyo");
    assert_eq!(found("Taipei").timezone, "Asia/Taipei");
    assert_eq!(found("香港").timezone, "Asia/Hong_Kong");
    assert_eq!(found("Zürich").id, found("Zurich").id);
}

#[test]
fn unknown_names_and_wrong_qualifiers_are_not_found() {
    assert_eq!(lookup("Qwertzville"), Lookup::NotFound { ignoring_qualifiers: Vec::new() });
    assert_eq!(lookup(""), Lookup::NotFound { ignoring_qualifiers: Vec::new() });
    match lookup("Hangzhou, Jiangsu") {
        Lookup::NotFound { ignoring_qualifiers } => {
            assert_eq!(ignoring_qualifiers[0].id, "cn330100")
        }
        other => panic!("{other:?}"),
    }
}

#[test]
fn places_are_found_by_id_and_labelled_for_people() {
    let p = place_by_id("cn320500").unwrap();
    assert_eq!(p.label(), "苏州市 Suzhou (江苏省 Jiangsu, China)");
    assert_eq!(
        place_by_id("cn320106").unwrap().label(),
        "鼓楼区 Gulou (江苏省 Jiangsu, 南京市 Nanjing, China)"
    );
    assert!(place_by_id("nope").is_none());
}

#[path = "places_tests.rs"]
mod places;
