//! The learned detector beside the rules (issue #28 §7, docs/safety.md "The learned
//! detector"): per language, a logistic regression over character n-grams and words, trained
//! by `scripts/safety-learn.py` on the labelled sets and shipped as data
//! (`data/safety/learned-{zh,en}.tsv`), parsed the first time a message of its language needs
//! it. It only scores a message; `screen.rs` decides when it may speak (no rule fired, no
//! fiction, joking or reported cue) and what it may say (a question for the model check, never
//! a risk). It must not read anything but the message, and it is deterministic.

use std::collections::HashMap;
use std::sync::OnceLock;

use super::error::SafetyError;
use super::types::Category;

/// The categories a model's classes name after `none`, in the file's order.
const CLASSES: [&str; 6] = ["none", "suicide", "self_harm", "harm_others", "abuse", "medical"];

/// One language's model, loaded from its weights file (features borrow the file's text).
#[derive(Debug)]
pub struct LearnedModel<'a> {
    language: String,
    ngrams: usize,
    threshold: f64,
    categories: [Category; 5],
    intercept: [f64; 6],
    /// Feature → (idf, one weight per class); f32 halves the memory, the file has 3 digits.
    features: HashMap<&'a str, (f32, [f32; 6])>,
}

/// What the model makes of one message.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct LearnedScore {
    /// Probability that the message is risky (1 − P(none)).
    pub risk: f64,
    /// The likeliest category.
    pub category: Category,
    /// Whether `risk` reaches the model's threshold.
    pub hit: bool,
}

impl<'a> LearnedModel<'a> {
    /// Parse a weights file (`file` names it in errors). A damaged file is refused whole, with
    /// the line and what is wrong.
    pub fn parse(text: &'a str, file: &str) -> Result<LearnedModel<'a>, SafetyError> {
        let err = |line: usize, message: String| SafetyError::Format {
            file: file.to_string(),
            message: format!(
                "line {line}: {message}; rewrite the file with scripts/safety-learn.sh"
            ),
        };
        let mut lines = text.lines().enumerate().map(|(i, l)| (i + 1, l));
        let mut header = |key: &str| -> Result<(usize, Vec<&str>), SafetyError> {
            let (n, line) = lines
                .by_ref()
                .find(|(_, l)| !l.starts_with('#'))
                .ok_or_else(|| err(0, format!("the file ends before its \"{key}\" line")))?;
            let mut parts = line.split('\t');
            match parts.next() {
                Some(k) if k == key => Ok((n, parts.collect())),
                _ => Err(err(n, format!("expected the \"{key}\" line, found {line:?}"))),
            }
        };
        let (n, version) = header("version")?;
        if version != ["1"] {
            return Err(err(n, format!("version {version:?} is not 1")));
        }
        let (_, language) = header("language")?;
        let language = language.concat();
        let (n, ngrams) = header("ngrams")?;
        let ngrams = match ngrams[..] {
            [v] => v.parse::<usize>().ok().filter(|v| (1..=8).contains(v)),
            _ => None,
        }
        .ok_or_else(|| err(n, format!("ngrams {ngrams:?} is not a number from 1 to 8")))?;
        let (n, threshold) = header("threshold")?;
        let threshold = match threshold[..] {
            [v] => v.parse::<f64>().ok().filter(|v| *v > 0.0 && *v < 1.0),
            _ => None,
        }
        .ok_or_else(|| err(n, format!("threshold {threshold:?} is not between 0 and 1")))?;
        let (n, classes) = header("classes")?;
        if classes != CLASSES {
            return Err(err(n, format!("classes {classes:?} are not {CLASSES:?}")));
        }
        let categories = [
            Category::Suicide,
            Category::SelfHarm,
            Category::HarmOthers,
            Category::Abuse,
            Category::Medical,
        ];
        let (n, intercept) = header("intercept")?;
        let intercept = numbers::<6>(&intercept)
            .ok_or_else(|| err(n, format!("intercept needs 6 numbers, found {intercept:?}")))?;
        let mut features = HashMap::with_capacity(text.len() / 64);
        for (n, line) in lines {
            let mut parts = line.split('\t');
            let (Some(feature), Some(idf)) = (parts.next(), parts.next()) else {
                return Err(err(
                    n,
                    format!("expected feature<TAB>idf<TAB>6 weights, found {line:?}"),
                ));
            };
            let idf = idf.parse::<f32>().ok().filter(|v| v.is_finite() && *v > 0.0);
            let weights = numbers::<6>(&parts.collect::<Vec<_>>()).map(|w| w.map(|v| v as f32));
            let (Some(idf), Some(weights)) = (idf, weights) else {
                return Err(err(n, format!("feature {feature:?}: expected an idf and 6 weights")));
            };
            if feature.trim().is_empty() {
                return Err(err(n, "a feature is empty".to_string()));
            }
            if features.insert(feature, (idf, weights)).is_some() {
                return Err(err(n, format!("feature {feature:?} is listed twice")));
            }
        }
        if features.is_empty() {
            return Err(err(0, "the file has no features".to_string()));
        }
        Ok(LearnedModel { language, ngrams, threshold, categories, intercept, features })
    }

    /// The language the model was trained for (`zh` or `en`).
    pub fn language(&self) -> &str {
        &self.language
    }

    /// Score `prepared`, a message as the rules read it ([`super::RuleSet::prepare`]).
    pub fn score(&self, prepared: &str) -> LearnedScore {
        let text = padded(prepared);
        let words: Vec<&str> = text
            .split(|c: char| !(c.is_ascii_lowercase() || c.is_ascii_digit() || c == '\''))
            .filter(|w| !w.is_empty())
            .collect();
        let word_grams: Vec<String> = words
            .iter()
            .map(|w| format!("w:{w}"))
            .chain(words.windows(2).map(|p| format!("w:{} {}", p[0], p[1])))
            .collect();
        // One count per distinct feature, characters and words together (as the trainer does).
        let mut counts: HashMap<&str, u32> = HashMap::new();
        let bounds: Vec<usize> =
            text.char_indices().map(|(i, _)| i).chain(std::iter::once(text.len())).collect();
        let chars = bounds.len() - 1;
        for n in 1..=self.ngrams.min(chars) {
            for start in 0..=(chars - n) {
                let gram = &text[bounds[start]..bounds[start + n]];
                if !gram.trim().is_empty() {
                    *counts.entry(gram).or_default() += 1;
                }
            }
        }
        for gram in &word_grams {
            *counts.entry(gram.as_str()).or_default() += 1;
        }
        // Sublinear tf-idf, L2-normalised over the features the model knows.
        let values: Vec<(&[f32; 6], f64)> = counts
            .into_iter()
            .filter_map(|(gram, count)| {
                let (idf, weights) = self.features.get(gram)?;
                Some((weights, (1.0 + f64::from(count).ln()) * f64::from(*idf)))
            })
            .collect();
        let norm = values.iter().map(|(_, v)| v * v).sum::<f64>().sqrt();
        let mut z = self.intercept;
        if norm > 0.0 {
            for (weights, value) in &values {
                for (zk, wk) in z.iter_mut().zip(weights.iter()) {
                    *zk += f64::from(*wk) * value / norm;
                }
            }
        }
        let top = z.iter().copied().fold(f64::NEG_INFINITY, f64::max);
        let exp = z.map(|v| (v - top).exp());
        let risk = 1.0 - exp[0] / exp.iter().sum::<f64>();
        let best = (1..6).fold(1, |best, k| if exp[k] > exp[best] { k } else { best });
        LearnedScore { risk, category: self.categories[best - 1], hit: risk >= self.threshold }
    }
}

/// A built-in model: its language, its embedded weights, and the model parsed from them the
/// first time a message of that language needs it (one language's weights cost a few
/// megabytes; a Chinese message never loads the English ones).
#[derive(Debug)]
pub struct LearnedSource {
    pub(super) language: &'static str,
    file: &'static str,
    text: &'static str,
    model: OnceLock<Option<LearnedModel<'static>>>,
}

impl LearnedSource {
    pub fn new(language: &'static str, file: &'static str, text: &'static str) -> Self {
        Self { language, file, text, model: OnceLock::new() }
    }

    /// The parsed model; `None` when the embedded file is damaged (logged once: a build
    /// problem the tests catch before release, and the rules still screen).
    pub fn get(&self) -> Option<&LearnedModel<'static>> {
        self.model
            .get_or_init(|| match LearnedModel::parse(self.text, self.file) {
                Ok(model) => Some(model),
                Err(e) => {
                    tracing::error!(error = %e, "the learned safety detector does not load");
                    None
                }
            })
            .as_ref()
    }
}

/// Whitespace runs made one space, one space at each end (the n-grams see word edges).
fn padded(prepared: &str) -> String {
    let mut out = String::with_capacity(prepared.len() + 2);
    out.push(' ');
    for word in prepared.split_whitespace() {
        out.push_str(word);
        out.push(' ');
    }
    out
}

/// Exactly `N` finite numbers.
fn numbers<const N: usize>(parts: &[&str]) -> Option<[f64; N]> {
    if parts.len() != N {
        return None;
    }
    let mut out = [0.0; N];
    for (slot, part) in out.iter_mut().zip(parts) {
        *slot = part.parse::<f64>().ok().filter(|v| v.is_finite())?;
    }
    Some(out)
}

/// Which model reads a message: Chinese when it holds a CJK ideograph, else English.
pub fn language_of(text: &str) -> &'static str {
    let cjk = |c: char| matches!(c, '\u{3400}'..='\u{4dbf}' | '\u{4e00}'..='\u{9fff}' | '\u{f900}'..='\u{faff}');
    if text.chars().any(cjk) { "zh" } else { "en" }
}
