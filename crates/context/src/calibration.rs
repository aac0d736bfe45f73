//! Token calibration per model (docs/context.md, "Calibration"): budgets are counted with
//! o200k, while local models (Qwen, Llama, DeepSeek, GLM) tokenise differently. After each
//! request the server's reported `prompt_tokens` is compared with the estimate; the ratio,
//! bounded and smoothed, is kept per model in the store and scales the budgets: a budget of N
//! model tokens allows N / factor estimated tokens. Counting tokens and fitting sections are
//! not here.

use std::sync::Mutex;
use std::sync::PoisonError;

use vibe_store::{CALIBRATION_BOUNDS, Store, TokenCalibration};

/// Requests estimated below this many tokens teach nothing (framing dominates them).
pub const MIN_ESTIMATE: u32 = 200;
/// The weight of a new sample once the factor has this many: 1 / FULL_SAMPLES (the first
/// samples are averaged, later ones move the factor by a fifth of the difference).
pub const FULL_SAMPLES: u32 = 5;

/// The factor after one more sample: `reported / estimate` clamped to the bounds, averaged
/// with the earlier samples (weight 1/(n+1), at least 1/[`FULL_SAMPLES`]). `None` when the
/// sample says nothing (too small an estimate, nothing reported) or changes nothing (a
/// settled factor that stays the same to three decimals).
pub fn next_calibration(
    current: Option<TokenCalibration>,
    estimate: u32,
    reported: u64,
) -> Option<TokenCalibration> {
    if estimate < MIN_ESTIMATE || reported == 0 {
        return None;
    }
    let (min, max) = CALIBRATION_BOUNDS;
    let ratio = (reported as f64 / f64::from(estimate)).clamp(min, max);
    let (factor, samples) = match current {
        None => (ratio, 1),
        Some(c) => {
            let weight = 1.0 / f64::from(c.samples.saturating_add(1).min(FULL_SAMPLES));
            (c.factor + weight * (ratio - c.factor), c.samples.saturating_add(1))
        }
    };
    // Rounded so the stored value and the events read the same.
    let factor = ((factor * 1000.0).round() / 1000.0).clamp(min, max);
    match current {
        // A settled factor that did not move: nothing to write (a steady model costs no
        // write per request).
        Some(c) if c.samples >= FULL_SAMPLES && c.factor == factor => None,
        _ => Some(TokenCalibration { factor, samples }),
    }
}

/// `estimate` in the model's tokens.
pub fn corrected(estimate: u32, factor: f64) -> u32 {
    let n = (f64::from(estimate) * factor).ceil();
    if n >= f64::from(u32::MAX) { u32::MAX } else { n as u32 }
}

/// A budget of `budget` model tokens in estimated tokens.
pub fn scaled_budget(budget: u32, factor: Option<f64>) -> u32 {
    match factor {
        Some(f) if f > 0.0 => (f64::from(budget) / f).floor() as u32,
        _ => budget,
    }
}

/// The calibration of the model the builder budgets for: loaded from the store once, updated
/// in the store and here after each request.
pub(crate) struct Calibrator {
    model: String,
    current: Mutex<Option<TokenCalibration>>,
}

impl Calibrator {
    pub(crate) fn load(store: &Store, model: &str) -> Result<Self, vibe_store::StoreError> {
        let current = store.token_calibration(model)?;
        Ok(Self { model: model.to_string(), current: Mutex::new(current) })
    }

    pub(crate) fn factor(&self) -> Option<f64> {
        self.current.lock().unwrap_or_else(PoisonError::into_inner).map(|c| c.factor)
    }

    /// Learn from one request: update the stored factor (from the stored value, which another
    /// process may have moved) and keep the result.
    pub(crate) fn record(
        &self,
        store: &Store,
        estimate: u32,
        reported: u64,
    ) -> Result<Option<TokenCalibration>, vibe_store::StoreError> {
        let known = *self.current.lock().unwrap_or_else(PoisonError::into_inner);
        if next_calibration(known, estimate, reported).is_none() {
            return Ok(known);
        }
        let stored = store.update_token_calibration(&self.model, |current| {
            next_calibration(current, estimate, reported)
        })?;
        *self.current.lock().unwrap_or_else(PoisonError::into_inner) = stored;
        Ok(stored)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cal(factor: f64, samples: u32) -> Option<TokenCalibration> {
        Some(TokenCalibration { factor, samples })
    }

    #[test]
    fn the_first_sample_sets_the_factor_and_later_ones_are_averaged_then_smoothed() {
        assert_eq!(next_calibration(None, 1000, 1300), cal(1.3, 1));
        assert_eq!(next_calibration(cal(1.3, 1), 1000, 1500), cal(1.4, 2));
        // From the fifth sample on, a new one moves the factor by a fifth of the gap.
        assert_eq!(next_calibration(cal(1.4, 7), 1000, 900), cal(1.3, 8));
    }

    #[test]
    fn the_factor_stays_within_its_bounds() {
        assert_eq!(next_calibration(None, 1000, 9000), cal(2.0, 1));
        assert_eq!(next_calibration(None, 1000, 10), cal(0.5, 1));
        assert_eq!(next_calibration(cal(2.0, 3), 1000, 100_000), cal(2.0, 4));
    }

    #[test]
    fn samples_that_say_nothing_are_ignored() {
        assert_eq!(next_calibration(cal(1.2, 3), 50, 80), None, "too small to tell");
        assert_eq!(next_calibration(cal(1.2, 3), 1000, 0), None, "nothing reported");
        assert_eq!(next_calibration(cal(1.2, 9), 1000, 1200), None, "settled and unchanged");
        assert_eq!(next_calibration(cal(1.2, 2), 1000, 1200), cal(1.2, 3), "still learning");
    }

    #[test]
    fn budgets_and_counts_convert_between_estimated_and_model_tokens() {
        assert_eq!(corrected(1000, 1.25), 1250);
        assert_eq!(corrected(999, 1.001), 1000, "rounded up: never under-counted");
        assert_eq!(scaled_budget(2000, Some(1.6)), 1250);
        assert_eq!(scaled_budget(2000, None), 2000);
    }
}
