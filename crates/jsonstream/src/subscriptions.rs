//! Which subscriptions are live where: the candidate stack that follows the
//! container stack, and the targets of the value being parsed.
//!
//! For a container at path length `d`, its *candidates* are the
//! subscriptions whose first `d` steps match its path and that are longer
//! than `d`; a child value is a *target* of a candidate whose step `d`
//! matches the child's segment and which has exactly `d + 1` steps. Ranges
//! into flat stacks keep this allocation-free in steady state. Building
//! event payloads is the parser's job.

use crate::event::{Mode, SubscriptionId};
use crate::pattern::{Seg, Step};

/// A half-open range into one of the flat id stacks.
pub(crate) type Range = (usize, usize);

struct Subscription {
    steps: Vec<Step>,
    mode: Mode,
}

#[derive(Default)]
pub(crate) struct Subscriptions {
    subs: Vec<Subscription>,
    /// Candidate ids; the first `subs.len()` entries are the root's (all).
    cands: Vec<usize>,
    /// Target ids of open containers, one range per container.
    targets: Vec<usize>,
    /// Targets of the value whose first byte was seen last.
    current: Vec<usize>,
}

impl Subscriptions {
    pub(crate) fn add(&mut self, steps: Vec<Step>, mode: Mode) -> SubscriptionId {
        let id = self.subs.len();
        self.subs.push(Subscription { steps, mode });
        self.cands.push(id);
        SubscriptionId(id)
    }

    /// Candidates of the (virtual) frame above the root value.
    pub(crate) fn root(&self) -> Range {
        (0, self.subs.len())
    }

    pub(crate) fn mode(&self, id: usize) -> Mode {
        self.subs[id].mode
    }

    /// Does `id`'s step for a value at path length `depth` (≥ 1) match `seg`?
    fn step_matches(&self, id: usize, depth: usize, seg: Option<Seg<'_>>) -> bool {
        match (seg, self.subs[id].steps.get(depth.wrapping_sub(1))) {
            (None, _) => depth == 0,
            (Some(seg), Some(step)) => step.matches(seg),
            (Some(_), None) => false,
        }
    }

    /// Sets the current targets for a value at path length `depth` whose
    /// segment is `seg` (`None` for the root) under candidates `parent`.
    pub(crate) fn select(&mut self, parent: Range, depth: usize, seg: Option<Seg<'_>>) {
        self.current.clear();
        for k in parent.0..parent.1 {
            let id = self.cands[k];
            if self.subs[id].steps.len() == depth && self.step_matches(id, depth, seg) {
                self.current.push(id);
            }
        }
    }

    /// Pushes the candidates of a container opened at path length `depth`
    /// with segment `seg` under candidates `parent`; returns their range.
    pub(crate) fn push_children(
        &mut self,
        parent: Range,
        depth: usize,
        seg: Option<Seg<'_>>,
    ) -> Range {
        let start = self.cands.len();
        for k in parent.0..parent.1 {
            let id = self.cands[k];
            if self.subs[id].steps.len() > depth && self.step_matches(id, depth, seg) {
                self.cands.push(id);
            }
        }
        (start, self.cands.len())
    }

    /// Moves the current targets onto the container target stack.
    pub(crate) fn push_current(&mut self) -> Range {
        let start = self.targets.len();
        self.targets.extend_from_slice(&self.current);
        (start, self.targets.len())
    }

    pub(crate) fn clear_current(&mut self) {
        self.current.clear();
    }

    pub(crate) fn current(&self) -> &[usize] {
        &self.current
    }

    pub(crate) fn container_targets(&self, range: Range) -> &[usize] {
        &self.targets[range.0..range.1]
    }

    /// Forgets a closed container's candidates and targets.
    pub(crate) fn pop(&mut self, cands: Range, targets: Range) {
        self.cands.truncate(cands.0.max(self.subs.len()));
        self.targets.truncate(targets.0);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::pattern::parse;

    fn subs(patterns: &[&str]) -> Subscriptions {
        let mut s = Subscriptions::default();
        for p in patterns {
            s.add(parse(p).unwrap(), Mode::Delta);
        }
        s
    }

    #[test]
    fn follows_a_path_down_and_selects_exact_length_targets() {
        let mut s = subs(&["$", "$.a", "$.a[*].b", "$.*"]);
        s.select(s.root(), 0, None);
        assert_eq!(s.current(), &[0]);
        let root = s.push_children(s.root(), 0, None);
        assert_eq!(root, (4, 7));
        s.select(root, 1, Some(Seg::Key("a")));
        assert_eq!(s.current(), &[1, 3]);
        let a = s.push_children(root, 1, Some(Seg::Key("a")));
        s.select(a, 2, Some(Seg::Index(5)));
        assert!(s.current().is_empty());
        let elem = s.push_children(a, 2, Some(Seg::Index(5)));
        s.select(elem, 3, Some(Seg::Key("b")));
        assert_eq!(s.current(), &[2]);
        s.select(elem, 3, Some(Seg::Key("c")));
        assert!(s.current().is_empty());
        s.select(root, 1, Some(Seg::Key("z")));
        assert_eq!(s.current(), &[3]);
    }
}
