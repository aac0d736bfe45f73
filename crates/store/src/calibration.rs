//! The `token_calibration` table (migration 0003): one row per model with the correction
//! factor between the app's token estimate and the tokens the model's server reports. How the
//! factor is learnt (bounds, smoothing) is the context builder's; this only stores it, and
//! makes each update one read-modify-write transaction so two processes never lose a sample.

use rusqlite::OptionalExtension as _;

use crate::Store;
use crate::clock::now_rfc3339;
use crate::error::{Result, StoreError};

/// The stored correction of one model.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct TokenCalibration {
    /// Reported prompt tokens per estimated token.
    pub factor: f64,
    /// Requests it was learnt from (at least 1).
    pub samples: u32,
}

/// The bounds the table accepts (its CHECK constraint).
pub const CALIBRATION_BOUNDS: (f64, f64) = (0.5, 2.0);

impl Store {
    /// The stored correction of `model`, if it has one.
    pub fn token_calibration(&self, model: &str) -> Result<Option<TokenCalibration>> {
        let conn = self.conn();
        let mut stmt =
            conn.prepare_cached("SELECT factor, samples FROM token_calibration WHERE model = ?1")?;
        Ok(stmt
            .query_row([model], |r| Ok(TokenCalibration { factor: r.get(0)?, samples: r.get(1)? }))
            .optional()?)
    }

    /// Replace `model`'s correction with `next(current)`, in one IMMEDIATE transaction (so a
    /// sample learnt by another process in between is not lost). `next` returning `None`
    /// leaves the row as it is. Refuses a factor outside [`CALIBRATION_BOUNDS`] or no samples.
    pub fn update_token_calibration(
        &self,
        model: &str,
        next: impl FnOnce(Option<TokenCalibration>) -> Option<TokenCalibration>,
    ) -> Result<Option<TokenCalibration>> {
        self.write_tx(|tx| {
            let current = tx
                .prepare_cached("SELECT factor, samples FROM token_calibration WHERE model = ?1")?
                .query_row([model], |r| {
                    Ok(TokenCalibration { factor: r.get(0)?, samples: r.get(1)? })
                })
                .optional()?;
            let Some(new) = next(current) else { return Ok(current) };
            let (min, max) = CALIBRATION_BOUNDS;
            if !(min..=max).contains(&new.factor) || new.samples == 0 {
                return Err(StoreError::invalid(format!(
                    "token calibration of {model:?}: factor {} with {} samples is out of range (factor {min}–{max}, at least 1 sample)",
                    new.factor, new.samples
                )));
            }
            tx.prepare_cached(
                "INSERT INTO token_calibration (model, factor, samples, updated_at) VALUES (?1, ?2, ?3, ?4)
                 ON CONFLICT (model) DO UPDATE SET factor = excluded.factor, samples = excluded.samples,
                 updated_at = excluded.updated_at",
            )?
            .execute(rusqlite::params![model, new.factor, new.samples, now_rfc3339()])?;
            Ok(Some(new))
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_calibration_is_stored_per_model_and_updated_from_the_current_value() {
        let store = Store::open_in_memory().unwrap();
        assert_eq!(store.token_calibration("qwen").unwrap(), None);
        let first = TokenCalibration { factor: 1.4, samples: 1 };
        store.update_token_calibration("qwen", |old| old.is_none().then_some(first)).unwrap();
        store
            .update_token_calibration("qwen", |old| {
                let old = old.unwrap();
                Some(TokenCalibration { factor: old.factor - 0.2, samples: old.samples + 1 })
            })
            .unwrap();
        let got = store.token_calibration("qwen").unwrap().unwrap();
        assert!((got.factor - 1.2).abs() < 1e-9 && got.samples == 2, "{got:?}");
        assert_eq!(store.token_calibration("llama").unwrap(), None, "per model");
    }

    #[test]
    fn an_out_of_range_factor_is_refused_and_changes_nothing() {
        let store = Store::open_in_memory().unwrap();
        let bad = TokenCalibration { factor: 3.0, samples: 1 };
        let err = store.update_token_calibration("glm", |_| Some(bad)).unwrap_err();
        assert!(err.to_string().contains("out of range"), "{err}");
        assert_eq!(store.token_calibration("glm").unwrap(), None);
    }
}
