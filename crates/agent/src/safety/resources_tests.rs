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

const OVERRIDE: &str = "\
# My own numbers
regions:
  - id: cn
    name: 我的城市
    emergency: [{name: 急救, number: \"120\"}]
    hotlines: [{name: 本地心理热线, number: \"96525\"}]
  - id: de
    name: Deutschland
    locales: [de-de, de]
    emergency: [{name: Notruf, number: \"112\"}]
    hotlines: [{name: TelefonSeelsorge, number: \"0800 111 0 111\", hours: \"24/7\"}]
";

#[test]
fn an_override_replaces_a_region_and_adds_locales() {
    let merged = builtin_resources().unwrap().with_override(OVERRIDE, "o.yaml").unwrap();
    let numbers = |locale: &str| -> Vec<String> {
        let region = merged.for_locale(locale);
        region.emergency.iter().chain(&region.hotlines).map(|c| c.number.clone()).collect()
    };
    assert_eq!(numbers("zh-CN"), ["120", "96525"], "cn replaced, its locales kept");
    assert_eq!(numbers("de_DE.UTF-8"), ["112", "0800 111 0 111"]);
    assert!(numbers("en-US").contains(&"988".to_string()), "other regions untouched");
    assert_eq!(merged.for_locale("fr-FR").id, "generic");
}

#[test]
fn an_override_problem_names_the_file_and_line() {
    let builtin = builtin_resources().unwrap();
    let cases = [
        // A contact without a number or url: the region's line.
        (
            "regions:\n  - id: cn\n    name: X\n    emergency: [{name: E, number: \"1\"}]\n    hotlines: [{name: L}]\n",
            "o.yaml:2: region \"cn\": \"L\" has neither a number nor a url",
        ),
        // A new region nobody's locale reaches.
        (
            "regions:\n  - {id: cn, name: X, emergency: [{name: E, number: \"1\"}], hotlines: [{name: L, number: \"2\"}]}\n  - id: fr\n    name: France\n    emergency: [{name: E, number: \"112\"}]\n    hotlines: [{name: L, number: \"3114\"}]\n",
            "o.yaml:3: region \"fr\" lists no locales and replaces no built-in region",
        ),
        (
            "regions:\n  - id: de\n    name: D\n    locales: [de_DE]\n    emergency: [{name: E, number: \"112\"}]\n    hotlines: [{name: L, number: \"1\"}]\n",
            "o.yaml:2: region \"de\": locale \"de_DE\" is not a lower-case tag",
        ),
        ("regions: []\n", "o.yaml:1: no regions"),
    ];
    for (text, expected) in cases {
        let err = builtin.with_override(text, "o.yaml").unwrap_err().to_string();
        assert!(err.starts_with(expected), "{err}\nexpected: {expected}");
        assert!(err.contains("docs/safety.md"), "{err}");
    }
    // A key the format does not have: the line the YAML parser points at.
    let err = builtin
        .with_override("regions:\n  - id: cn\n    name: X\n    phone: \"1\"\n", "o.yaml")
        .unwrap_err()
        .to_string();
    assert!(err.starts_with("o.yaml:4: ") && err.contains("phone"), "{err}");
}

#[test]
fn an_unusable_override_file_leaves_the_built_in_resources() {
    let dir = tempfile::tempdir().unwrap();
    let builtin = builtin_resources().unwrap();
    let (same, problem) = CrisisResources::for_data_dir(builtin, Some(dir.path()));
    assert_eq!((&same, problem.is_none()), (builtin, true), "no file: the built-in ones");
    std::fs::create_dir_all(dir.path().join("safety")).unwrap();
    std::fs::write(dir.path().join("safety/resources.yaml"), "regions: [").unwrap();
    let (kept, problem) = CrisisResources::for_data_dir(builtin, Some(dir.path()));
    assert_eq!(&kept, builtin);
    let problem = problem.unwrap().to_string();
    assert!(problem.contains("safety/resources.yaml:"), "{problem}");
}
