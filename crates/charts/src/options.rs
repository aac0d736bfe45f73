//! The person's chart preferences (`preferences` in the profile) that change a chart: today
//! the 子时 day boundary. Reading them from the profile JSON and echoing them into the chart
//! lives here; what they change is each chart's business (`bazi`).

use serde_json::{Value, json};

use crate::ChartError;

/// When the day pillar turns during the 子 hour (23:00–01:00).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum ZiHourDayChange {
    /// 子初换日: 23:00 starts the next day (the default; tyme4rs's convention).
    #[default]
    At23,
    /// 子正换日: the day turns at midnight; 23:00–24:00 (晚子时) keeps the same day pillar,
    /// with the 子 hour pillar.
    At24,
}

impl ZiHourDayChange {
    pub fn as_str(self) -> &'static str {
        match self {
            Self::At23 => "23:00",
            Self::At24 => "24:00",
        }
    }
}

/// Preferences a chart depends on. `Default` is what a profile without them gets.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct ChartOptions {
    pub zi_hour_day_change: ZiHourDayChange,
}

impl ChartOptions {
    /// Reads the profile's `preferences` object (absent or null: defaults). Errors name the
    /// field, e.g. `preferences.zi_hour_day_change`.
    pub fn from_preferences(preferences: Option<&Value>) -> Result<Self, ChartError> {
        const FIELD: &str = "preferences.zi_hour_day_change";
        let value = preferences.and_then(|p| p.get("zi_hour_day_change"));
        let zi = match value {
            None | Some(Value::Null) => ZiHourDayChange::default(),
            Some(Value::String(s)) if s.trim() == "23:00" => ZiHourDayChange::At23,
            Some(Value::String(s)) if matches!(s.trim(), "24:00" | "00:00") => {
                ZiHourDayChange::At24
            }
            Some(other) => {
                return Err(ChartError::invalid(
                    FIELD,
                    format!(
                        "{} is not a day boundary; use \"23:00\" (the day changes at 23:00, 子初换日, the default) or \"24:00\" (at midnight, 子正换日)",
                        crate::birth::kind_of(other)
                    ),
                ));
            }
        };
        Ok(Self { zi_hour_day_change: zi })
    }

    /// The options a chart of `compute_type` depends on, as stored in the chart's `options`
    /// (a stored chart with other options is stale).
    pub fn to_json(&self, compute_type: &str) -> Value {
        match compute_type.trim() {
            "bazi" => json!({"zi_hour_day_change": self.zi_hour_day_change.as_str()}),
            _ => json!({}),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_default_is_23_and_both_forms_are_read() {
        assert_eq!(ChartOptions::from_preferences(None).unwrap(), ChartOptions::default());
        let at = |v: Value| {
            ChartOptions::from_preferences(Some(&json!({"zi_hour_day_change": v})))
                .map(|o| o.zi_hour_day_change)
        };
        assert_eq!(at(json!("23:00")), Ok(ZiHourDayChange::At23));
        assert_eq!(at(json!("24:00")), Ok(ZiHourDayChange::At24));
        assert_eq!(at(Value::Null), Ok(ZiHourDayChange::At23));
        let e = at(json!("midnight")).unwrap_err();
        assert_eq!(e.field(), Some("preferences.zi_hour_day_change"));
        assert!(e.to_string().contains("use \"23:00\""), "{e}");
    }
}
