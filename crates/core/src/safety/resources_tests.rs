//! Tests of the crisis resources: the shipped file is valid and each locale reaches the
//! numbers people there know.

use super::{CrisisResources, builtin_resources};

fn numbers(locale: &str) -> Vec<String> {
    let region = builtin_resources().unwrap().for_locale(locale);
    region.emergency.iter().chain(&region.hotlines).map(|c| c.number.clone()).collect()
}

#[test]
fn each_region_gets_its_own_numbers() {
    let cn = numbers("zh-CN");
    assert!(cn.contains(&"12356".to_string()) && cn.contains(&"120".to_string()), "{cn:?}");
    assert!(numbers("zh-HK").contains(&"2389 2222".to_string()));
    assert!(numbers("zh-HK").contains(&"999".to_string()));
    assert!(numbers("zh-TW").contains(&"1925".to_string()));
    assert!(numbers("zh-Hant-TW").contains(&"119".to_string()));
    assert!(numbers("en-US").contains(&"988".to_string()));
    assert!(numbers("en_US.UTF-8").contains(&"911".to_string()));
    assert!(numbers("en-GB").contains(&"116 123".to_string()));
}

#[test]
fn unknown_locales_fall_back_to_generic() {
    let res = builtin_resources().unwrap();
    assert_eq!(res.for_locale("fr-FR").id, "generic");
    assert_eq!(res.for_locale("").id, "generic");
    assert_eq!(res.for_locale("en").id, "generic");
    // A prefix only counts at a `-` boundary: "zh-cnx" is not zh-CN.
    assert_eq!(res.for_locale("zh-hk-x-private").id, "hk");
}

#[test]
fn a_resources_file_without_generic_or_numbers_is_refused() {
    let no_generic = "regions:\n  - id: us\n    name: US\n    emergency: [{name: E, number: '911'}]\n    hotlines: [{name: L, number: '988'}]\n";
    let err = CrisisResources::parse(no_generic, "r.yaml").unwrap_err().to_string();
    assert!(err.contains("no \"generic\" region"), "{err}");
    let no_number = "regions:\n  - id: generic\n    name: G\n    emergency: [{name: E}]\n    hotlines: [{name: L, number: '1'}]\n";
    let err = CrisisResources::parse(no_number, "r.yaml").unwrap_err().to_string();
    assert!(err.contains("no emergency number"), "{err}");
}
