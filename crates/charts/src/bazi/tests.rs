use serde_json::{Value, json};

use crate::compute;

fn bazi(birth: Value) -> Value {
    compute("bazi", &birth).unwrap()
}

fn pillars(chart: &Value) -> String {
    let p = &chart["pillars"];
    ["year", "month", "day", "hour"]
        .iter()
        .map(|k| p[k].as_str().unwrap_or("--"))
        .collect::<Vec<_>>()
        .join(" ")
}

fn beijing(date: &str, time: &str) -> Value {
    json!({"date": date, "time": time, "place": "Beijing", "timezone": "Asia/Shanghai"})
}

#[test]
fn published_example_2005_12_23() {
    // tyme4j (the upstream of tyme4rs) EightCharTest.test8:
    // SolarTime 2005-12-23 08:37 -> 乙酉 戊子 辛巳 壬辰.
    assert_eq!(pillars(&bazi(beijing("2005-12-23", "08:37"))), "乙酉 戊子 辛巳 壬辰");
}

#[test]
fn published_example_at_23_30_belongs_to_the_next_day() {
    // tyme4j EightCharTest.test9: SolarTime 1988-02-15 23:30 -> 戊辰 甲寅 辛丑 戊子.
    // 1988-02-15 itself is a 庚子 day; 23:30 is the late 子 hour, which this crate counts
    // as the start of the next day (辛丑), so the hour is 辛-day 子 = 戊子.
    let chart = bazi(beijing("1988-02-15", "23:30"));
    assert_eq!(pillars(&chart), "戊辰 甲寅 辛丑 戊子");
    // An hour earlier the day is still 庚子 (亥 hour of a 庚 day = 丁亥).
    let before = bazi(beijing("1988-02-15", "22:30"));
    assert_eq!(pillars(&before), "戊辰 甲寅 庚子 丁亥");
}

#[test]
fn published_example_two_days_before_lichun_keeps_the_old_year() {
    // tyme4j EightCharTest.test14: SolarTime 1992-02-02 12:00 -> 辛未 辛丑 戊申 戊午.
    // 立春 1992 fell on February 4, so the year is still 辛未 (not 壬申).
    assert_eq!(pillars(&bazi(beijing("1992-02-02", "12:00"))), "辛未 辛丑 戊申 戊午");
}

#[test]
fn published_example_mao_zedong() {
    // Mao Zedong, born 1893-12-26 in the 辰 hour (07:00-09:00) at Shaoshan, Hunan: his chart
    // is published in countless bazi texts as 癸巳 甲子 丁酉 甲辰.
    let chart = bazi(json!({
        "date": "1893-12-26", "time": "08:00", "place": "韶山", "timezone": "Asia/Shanghai"
    }));
    assert_eq!(pillars(&chart), "癸巳 甲子 丁酉 甲辰");
    assert_eq!(chart["day_master"]["stem"], "丁");
    assert_eq!(chart["day_master"]["element"], "fire");
    assert_eq!(chart["zodiac_animal"]["en"], "snake");
    // 癸水 甲木 丁火 甲木 / 巳火 子水 酉金 辰土.
    assert_eq!(
        chart["elements"],
        json!({"wood": 2, "fire": 2, "earth": 1, "metal": 1, "water": 2})
    );
    assert_eq!(chart["ten_gods"]["year"], "七杀");
    assert_eq!(chart["ten_gods"]["month"], "正印");
    assert_eq!(chart["ten_gods"]["day"], "日主");
    assert_eq!(chart["hidden_stems"]["year"], json!(["丙", "庚", "戊"]));
}

#[test]
fn year_and_month_turn_at_the_exact_moment_of_lichun_2024() {
    // 立春 2024: 2024-02-04 16:26:53 Beijing time (Purple Mountain Observatory, 中国天文年历).
    // Before it: 癸卯 year, 乙丑 month; after it: 甲辰 year, 丙寅 month (五虎遁: 甲年起丙寅).
    // The day (2024-02-04) is 戊戌 in every almanac.
    let before = bazi(beijing("2024-02-04", "16:26"));
    let after = bazi(beijing("2024-02-04", "16:28"));
    assert_eq!(before["pillars"]["year"], "癸卯");
    assert_eq!(before["pillars"]["month"], "乙丑");
    assert_eq!(after["pillars"]["year"], "甲辰");
    assert_eq!(after["pillars"]["month"], "丙寅");
    assert_eq!(before["pillars"]["day"], "戊戌");
    assert_eq!(after["pillars"]["day"], "戊戌");
    // tyme4rs puts it at 16:27:07 (its ΔT extrapolation for 2024 is ~14 s high): within a
    // minute of the published instant is what a birth chart can use.
    let at = after["solar_terms"]["previous_jie"]["at"].as_str().unwrap();
    let at = chrono::DateTime::parse_from_rfc3339(at).unwrap();
    let published = chrono::DateTime::parse_from_rfc3339("2024-02-04T16:26:53+08:00").unwrap();
    assert!((at - published).num_seconds().abs() < 60, "{at}");
    assert_eq!(after["solar_terms"]["previous_jie"]["name"], "立春");
    assert_eq!(after["solar_terms"]["next_jie"]["name"], "惊蛰");
}

#[test]
fn lichun_is_an_instant_for_births_abroad() {
    // 03:30 in New York (EST, UTC-5) on 2024-02-04 is 16:30 in Beijing: after 立春, so 甲辰.
    // The day and hour are read from New York's own clock: 戊戌 day, 寅 hour (戊 day 寅 = 甲寅).
    let chart = bazi(json!({
        "date": "2024-02-04", "time": "03:30", "place": "New York", "timezone": "America/New_York"
    }));
    assert_eq!(pillars(&chart), "甲辰 丙寅 戊戌 甲寅");
}

#[test]
fn true_solar_time_is_used_when_longitude_is_known() {
    // Urumqi (87.6°E) keeps Beijing time: 01:30 on the clock is about 23:22 local apparent
    // solar time on the previous evening, i.e. the late 子 hour, which already belongs to the
    // clock's day. Day 辛巳 (as in the 2005-12-23 example); hour 子 of a 辛 day = 戊子.
    let mut birth = beijing("2005-12-23", "01:30");
    let clock = bazi(birth.clone());
    assert_eq!(clock["pillars"]["hour"], "己丑");
    assert_eq!(clock["reckoning"]["basis"], "standard_time");
    birth["longitude"] = json!(87.6);
    let solar = bazi(birth);
    assert_eq!(solar["pillars"]["day"], "辛巳");
    assert_eq!(solar["pillars"]["hour"], "戊子");
    assert_eq!(solar["reckoning"]["basis"], "true_solar_time");
    assert!(
        solar["reckoning"]["pillar_time"].as_str().unwrap().starts_with("2005-12-22T23:2"),
        "{}",
        solar["reckoning"]
    );
}

#[test]
fn daylight_saving_is_removed_without_longitude() {
    // China kept daylight saving in summer 1988: 09:30 on the clock was 08:30 standard
    // time, so the hour branch is 辰 (07-09), not 巳.
    let chart = bazi(beijing("1988-07-01", "09:30"));
    assert_eq!(chart["branches"]["hour"], "辰");
    assert_eq!(chart["reckoning"]["daylight_saving_removed_minutes"], 60);
}

#[test]
fn unknown_time_leaves_the_hour_out_and_flags_term_days() {
    let chart = bazi(json!({"date": "2005-12-23", "timezone": "Asia/Shanghai"}));
    assert_eq!(chart["pillars"]["hour"], Value::Null);
    assert_eq!(chart["pillars"]["day"], "辛巳");
    assert_eq!(chart["uncertain"], json!(["hour"]));
    let sums: u64 =
        chart["elements"].as_object().unwrap().values().map(|v| v.as_u64().unwrap()).sum();
    assert_eq!(sums, 6);

    let lichun = bazi(json!({"date": "2024-02-04", "timezone": "Asia/Shanghai"}));
    assert_eq!(lichun["uncertain"], json!(["hour", "month", "year"]));
}

#[test]
fn input_is_echoed_for_recompute_checks() {
    let birth = beijing("2005-12-23", "08:37");
    let chart = bazi(birth.clone());
    assert_eq!(chart["input"], birth);
    assert_eq!(chart["compute_type"], "bazi");
    assert_eq!(chart["version"], super::VERSION);
}

fn bazi_with(birth: Value, zi: crate::ZiHourDayChange) -> Value {
    crate::compute_with("bazi", &birth, &crate::ChartOptions { zi_hour_day_change: zi }).unwrap()
}

#[test]
fn with_the_midnight_convention_the_late_zi_hour_keeps_its_day() {
    use crate::ZiHourDayChange::{At23, At24};
    // 1988-02-15 is a 庚子 day. At 23:30 the 23:00 school (default) is already on 辛丑;
    // the midnight school keeps 庚子. The hour is 戊子 either way.
    let late = beijing("1988-02-15", "23:30");
    let at23 = bazi_with(late.clone(), At23);
    let at24 = bazi_with(late, At24);
    assert_eq!(pillars(&at23), "戊辰 甲寅 辛丑 戊子");
    assert_eq!(pillars(&at24), "戊辰 甲寅 庚子 戊子");
    assert_eq!(at24["day_master"]["stem"], "庚");
    assert_eq!(at24["ten_gods"]["hour"], "偏印", "the hour's ten god follows the 庚 day master");
    assert_eq!(at24["options"]["zi_hour_day_change"], "24:00");
    assert!(at24["conventions"]["day_boundary"].as_str().unwrap().starts_with("24:00"));
    assert_eq!(at23["options"]["zi_hour_day_change"], "23:00");
    // After midnight both schools agree on the next day.
    let early = beijing("1988-02-16", "00:30");
    assert_eq!(pillars(&bazi_with(early.clone(), At24)), pillars(&bazi_with(early, At23)));
}

#[test]
fn kashgar_on_beijing_time_reads_its_hour_about_three_hours_earlier() {
    // 12:00 Beijing time at Kashgar (75.99°E) is about 09:05 true solar time: 巳 hour, not 午.
    let clock = json!({"date": "2000-05-17", "time": "12:00", "timezone": "Asia/Shanghai"});
    assert_eq!(bazi(clock.clone())["branches"]["hour"], "午");
    let mut at_kashgar = clock;
    at_kashgar["longitude"] = json!(75.99);
    let chart = bazi(at_kashgar);
    assert_eq!(chart["branches"]["hour"], "巳");
    let shift = chart["reckoning"]["offset_from_clock_minutes"].as_i64().unwrap();
    assert!((-180..=-170).contains(&shift), "{shift}");
}
