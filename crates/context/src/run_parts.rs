//! What the phase-2 prompts of one run share: the skill's static parts (`statics`) and the
//! cases matched to the person's message (`cases`) are the same for every model call of a run,
//! so later calls reuse the first call's instead of rendering, counting and ranking them again
//! (docs/performance.md, "Session 8"). A `RunParts` lives exactly as long as one run, so there
//! is nothing to invalidate: a skill file edited during a run is read by the next run. Building
//! the parts is `statics.rs` and `cases.rs`; deciding what goes into a prompt is `phase2.rs`.

use std::sync::{Arc, Mutex, PoisonError};

use super::statics::Statics;
use crate::ContextError;

/// The skill, persona title and scenario the static parts were built for.
type StaticsKey = (String, String, Option<String>);
/// The skill, message and number of cases the matched cases were ranked for.
type CasesKey = (String, String, usize);

/// The prompt parts a run's model calls share. Create one per run (`Default`) and pass it in
/// [`super::PromptRequest::run`].
#[derive(Default)]
pub struct RunParts {
    statics: Mutex<Option<(StaticsKey, Arc<Statics>)>>,
    cases: Mutex<Option<(CasesKey, Arc<Vec<String>>)>>,
}

impl std::fmt::Debug for RunParts {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("RunParts").finish_non_exhaustive()
    }
}

/// The value kept in `slot` for `key`, else `make()` kept there (replacing a value for another
/// key: a run that switches skill or scenario builds the new one's).
fn kept<K: PartialEq, V: Clone>(
    slot: &Mutex<Option<(K, V)>>,
    key: K,
    make: impl FnOnce() -> Result<V, ContextError>,
) -> Result<V, ContextError> {
    let mut slot = slot.lock().unwrap_or_else(PoisonError::into_inner);
    if let Some((k, v)) = slot.as_ref()
        && *k == key
    {
        return Ok(v.clone());
    }
    let value = make()?;
    *slot = Some((key, value.clone()));
    Ok(value)
}

impl RunParts {
    pub(super) fn statics(
        &self,
        key: (&str, &str, Option<&str>),
        make: impl FnOnce() -> Result<Arc<Statics>, ContextError>,
    ) -> Result<Arc<Statics>, ContextError> {
        let key = (key.0.to_string(), key.1.to_string(), key.2.map(str::to_string));
        kept(&self.statics, key, make)
    }

    pub(super) fn cases(
        &self,
        key: (&str, &str, usize),
        make: impl FnOnce() -> Result<Arc<Vec<String>>, ContextError>,
    ) -> Result<Arc<Vec<String>>, ContextError> {
        kept(&self.cases, (key.0.to_string(), key.1.to_string(), key.2), make)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_part_is_made_once_per_key_and_again_for_another() {
        let parts = RunParts::default();
        let mut made = 0;
        let mut get = |message: &str| {
            parts
                .cases(("demo", message, 2), || {
                    made += 1;
                    Ok(Arc::new(vec![format!("case for {message}")]))
                })
                .unwrap()
        };
        assert_eq!(get("a")[0], "case for a");
        assert_eq!(get("a")[0], "case for a");
        assert_eq!(get("b")[0], "case for b");
        assert_eq!(made, 2);
    }

    #[test]
    fn a_failed_make_keeps_nothing() {
        let parts = RunParts::default();
        let err = parts.cases(("demo", "a", 2), || Err(ContextError::InvalidLimits("no".into())));
        assert!(err.is_err());
        let ok = parts.cases(("demo", "a", 2), || Ok(Arc::new(vec!["x".into()]))).unwrap();
        assert_eq!(ok[0], "x");
    }
}
