//! What reading a run's event log proved about it (docs/audit.md#what-a-read-proves): whole
//! and closed, in order but without its closing record, damaged at a line, or of a form that
//! proves nothing about order (a clear log, a sealed one written before chaining), and the one
//! line a person reads about it. Walking the records is `chain`'s; reading files `reader`'s.

use std::path::Path;

use serde::Serialize;

use super::chain;

/// What the form of a run's `events.jsonl` proves about its order and completeness.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(tag = "state", rename_all = "snake_case")]
pub enum Integrity {
    /// A clear log (a data folder with encryption off): nothing seals it, so nothing is proved.
    Clear,
    /// Sealed before records were chained (or a clear log sealed as it was found): each record
    /// is authentic, but a lost, reordered or cut-off record cannot be seen.
    Unchained,
    /// Every record authentic and in its place, and the closing record counts them: whole.
    Closed { records: u64 },
    /// Every record authentic and in its place, but no closing record: the run was
    /// interrupted (or is still going on), or the file was cut at a record's end; `cut_line`:
    /// the last line is a record cut short (dropped); `live`: another process still writes it.
    Unclosed { records: u64, cut_line: Option<usize>, live: bool },
    /// The first record out of its place or failing its authentication, at 1-based `line` of
    /// the file: the events before it are read, the `lines_after` lines after it are not.
    Damaged { line: usize, problem: String, lines_after: usize },
}

impl Integrity {
    /// From how a chained file's walk ended.
    pub(super) fn from_chain(end: chain::End, live: bool) -> Self {
        match end {
            chain::End::Closed { records } => Self::Closed { records },
            chain::End::Open { records, cut_line } => Self::Unclosed { records, cut_line, live },
            chain::End::Broken { line, problem, lines_after } => {
                Self::Damaged { line, problem: problem.to_string(), lines_after }
            }
        }
    }

    /// The line a person reads about a log of run `run_id` at `path` holding `events` events
    /// (`None`: nothing to say, a whole log or a clear one).
    pub(super) fn notice(&self, run_id: &str, path: &Path, events: usize) -> Option<String> {
        let path = path.display();
        match self {
            Self::Clear | Self::Closed { .. } => None,
            Self::Unchained => Some(format!(
                "run {run_id}: its log was written before chaining (unverified order): a record \
                 lost, moved or cut off at its end cannot be detected in it"
            )),
            Self::Unclosed { live: true, .. } => Some(format!(
                "run {run_id}: its log has no closing record yet: the run is still going on in \
                 another process; the {events} events written so far are intact and in order"
            )),
            Self::Unclosed { cut_line: Some(line), .. } => Some(format!(
                "run {run_id}: its log ends without its closing record (the run was interrupted \
                 or the file was cut): its last record, {path}:{line}, is cut short; the {events} \
                 events before it are intact and in order"
            )),
            Self::Unclosed { cut_line: None, .. } => Some(format!(
                "run {run_id}: its log ends without its closing record (the run was interrupted \
                 or the file was cut); the {events} events in it are intact and in order"
            )),
            Self::Damaged { line, problem, lines_after } => Some(format!(
                "run {run_id}: its log is damaged at {path}:{line}: {problem}; the {events} events \
                 before it are shown, the {lines_after} lines after it are not"
            )),
        }
    }

    /// Whether the log is damaged or ends without its closing record (what export and backup
    /// checks report; an unchained log is only noted).
    pub fn is_problem(&self) -> bool {
        matches!(self, Self::Damaged { .. } | Self::Unclosed { .. })
    }
}
