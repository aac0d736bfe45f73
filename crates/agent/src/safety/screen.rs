//! Screening one message against a compiled [`RuleSet`]: guards blank out idioms, rules are
//! matched, each hit is weighed against negation, fiction, the rule's deferring contexts,
//! joking and reported speech, and the strongest hit decides. When no rule fired, the learned
//! detector (`learned.rs`) may ask the model check about a category, unless the message reads
//! as fiction, a joke or someone else's words.

use super::learned::language_of;
use super::normalize::{
    clause_end, clause_start, inside_quotes, normalize, sentence_end, sentence_start,
};
use super::rules::{LazyRegex, Rule, RuleSet};
use super::types::{Category, Discount, Risk, Screening};

/// One rule's strongest hit in a message after discounts.
struct Hit<'a> {
    rule: &'a Rule,
    risk: Risk,
    discount: Option<Discount>,
}

/// The fewest non-space characters a prepared message needs before the learned detector reads
/// it (`scripts/safety-learn.py` applies the same floor to its figures): a word or two says
/// too little for n-gram weights to mean anything.
const MIN_LEARNED_CHARS: usize = 6;

impl RuleSet {
    /// Screen one message. Never fails: the rules were validated when the set was built.
    pub fn screen(&self, message: &str) -> Screening {
        let (text, open, guarded) = self.prepare_gated(message);
        let (rules, fiction_open) = (&open[..self.rules.len()], open[self.rules.len() + 1]);
        let fiction =
            fiction_open && self.fiction.as_ref().is_some_and(|re| re.get().is_match(&text));
        let mut best: Option<Hit> = None;
        for (rule, _) in self.rules.iter().zip(rules).filter(|(_, open)| **open) {
            for found in rule.pattern.get().find_iter(&text) {
                if rule.unless.as_ref().is_some_and(|re| {
                    re.get().is_match(
                        &text[sentence_start(&text, found.start())
                            ..sentence_end(&text, found.end())],
                    )
                }) {
                    continue;
                }
                let hit = self.weigh(rule, &text, found.start(), fiction);
                let better = match &best {
                    None => true,
                    Some(b) => rank(&hit) > rank(b),
                };
                if better {
                    best = Some(hit);
                }
            }
        }
        match best {
            // A guard's idiom explains the words that look like risk; what is left around it
            // is a fragment ("that would be") the learned detector cannot read.
            None if guarded => Screening::clear(),
            None => self.screen_learned(&text, fiction),
            Some(hit) => Screening {
                risk: hit.risk,
                category: (hit.risk != Risk::None).then_some(hit.rule.category),
                rule: Some(hit.rule.id.clone()),
                unsure: hit.discount.is_some() || hit.rule.unsure,
                deferred: (hit.discount == Some(Discount::Context))
                    .then_some((hit.rule.risk, hit.rule.category)),
                discount: hit.discount,
                learned: None,
            },
        }
    }

    /// No rule fired: the learned detector of the message's language may ask the model check
    /// about the category it reads — never a risk of its own. A fiction cue anywhere, or (but
    /// for abuse told about oneself) a joking or reported cue or quotes anywhere, keep it quiet.
    fn screen_learned(&self, text: &str, fiction: bool) -> Screening {
        if fiction || text.chars().filter(|c| !c.is_whitespace()).count() < MIN_LEARNED_CHARS {
            return Screening::clear();
        }
        let language = language_of(text);
        let Some(model) =
            self.learned.iter().find(|m| m.language == language).and_then(|m| m.get())
        else {
            return Screening::clear();
        };
        let score = model.score(text);
        if !score.hit {
            return Screening::clear();
        }
        let cue = |re: &Option<LazyRegex>| re.as_ref().is_some_and(|re| re.get().is_match(text));
        let quoted = ['"', '“', '「', '『'].iter().any(|q| text.contains(*q));
        if score.category != Category::Abuse && (quoted || cue(&self.joking) || cue(&self.reported))
        {
            return Screening::clear();
        }
        Screening {
            rule: Some(format!("learned:{}", score.category.as_str())),
            unsure: true,
            learned: Some(score.category),
            ..Screening::clear()
        }
    }

    /// The text the rules and the learned detector read: normalised (`normalize.rs`) with the
    /// guards' idioms blanked out (`scripts/safety-learn.py` trains on exactly this), and
    /// whether a guard blanked anything (the learned detector then stays quiet).
    pub fn prepare(&self, message: &str) -> (String, bool) {
        let (text, _, guarded) = self.prepare_gated(message);
        (text, guarded)
    }

    /// [`Self::prepare`], which rules, guards and fiction cues the message's words can match
    /// at all (the rest are neither compiled nor run for it; blanking guards only removes
    /// words), and whether a guard blanked anything.
    fn prepare_gated(&self, message: &str) -> (String, Vec<bool>, bool) {
        let text = normalize(message, &self.fold);
        let open = self.prefilter.open(&text);
        let (text, guarded) =
            if open[self.rules.len()] { self.blank_guards(&text) } else { (text, false) };
        (text, open, guarded)
    }

    fn weigh<'a>(&self, rule: &'a Rule, text: &str, at: usize, fiction: bool) -> Hit<'a> {
        let clause = &text[clause_start(text, at)..at];
        let negated =
            |cue: &Option<LazyRegex>| cue.as_ref().is_some_and(|re| re.get().is_match(clause));
        if negated(&self.negation) || negated(&self.negation_adjacent) {
            return Hit { rule, risk: Risk::None, discount: Some(Discount::Negated) };
        }
        if fiction {
            return Hit { rule, risk: Risk::None, discount: Some(Discount::Fiction) };
        }
        if rule.defer.as_ref().is_some_and(|re| re.get().is_match(text)) {
            return Hit { rule, risk: Risk::None, discount: Some(Discount::Context) };
        }
        // Laughter in the hit's clause reads as hyperbole; abuse told about oneself does not.
        let joking = self.joking.as_ref().is_some_and(|re| {
            re.get().is_match(&text[clause_start(text, at)..clause_end(text, at)])
        });
        if joking && !rule.keep_when_reported {
            return Hit { rule, risk: Risk::None, discount: Some(Discount::Joking) };
        }
        let reported = inside_quotes(text, at)
            || self.reported.as_ref().is_some_and(|re| re.get().is_match(&text[..at]));
        if reported && !rule.keep_when_reported {
            return Hit {
                rule,
                risk: rule.risk.min(Risk::Concern),
                discount: Some(Discount::Reported),
            };
        }
        Hit { rule, risk: rule.risk, discount: None }
    }

    /// Replace every guard match with spaces of the same byte length, so positions hold; and
    /// whether any matched.
    fn blank_guards(&self, text: &str) -> (String, bool) {
        let Some(guards) = &self.guards else {
            return (text.to_string(), false);
        };
        let mut out = String::with_capacity(text.len());
        let mut last = 0;
        for m in guards.get().find_iter(text) {
            out.push_str(&text[last..m.start()]);
            out.extend(std::iter::repeat_n(' ', m.len()));
            last = m.end();
        }
        out.push_str(&text[last..]);
        (out, last > 0)
    }
}

/// Higher is stronger: risk first, then an undiscounted hit over a discounted one. Equal
/// ranks keep the earlier rule (file order).
fn rank(hit: &Hit) -> (Risk, bool) {
    (hit.risk, hit.discount.is_none())
}
