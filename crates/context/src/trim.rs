//! Fitting the phase-2 prompt to its budget. Sections come in a fixed order, what stays the
//! same from turn to turn first (docs/local-model.md, "Prompt order"): the system prompt is
//! persona, persona_mode, voice, rules | scenario, ethics, boundaries, wellbeing, language
//! (then the tool definitions); the turn's sections — cases, profile, state, protocol,
//! summary — ride with the latest user message. When the total is over budget,
//! trims are applied one step at a time in this fixed priority order until it fits. The
//! turn's sections give way first, so the system prompt (the prefix a model's cache keeps)
//! changes only when shortening them could not make room:
//!
//! 1. cases — the lowest-ranked matched case is dropped, one at a time;
//! 2. state — lists cut to their newest 5 items, long texts to 200 characters;
//! 3. profile — lists cut to their newest 5 items, long texts to 200 characters;
//! 4. summary — kept to its first and last lines, half then a quarter of its size;
//! 5. rules / scenario — files cut to their opening paragraph, one at a time, the last first
//!    (the files before it, and so the prefix up to it, stay as they were);
//! 6. rules / scenario — whole files dropped, the last first;
//! 7. state — left out, with a pointer to `read_state`;
//! 8. tools — the short form: each description cut to its first sentence, the schemas without
//!    their descriptions (`tool_forms`; every tool and field stays);
//! 9. persona — cut to its heading and opening paragraph.
//!
//! Steps 8 and 9 are the last resort of a small context window (a 4k model). The persona mode,
//! voice, ethics, boundaries, wellbeing instruction, protocol prompt and language rule are never
//! trimmed. Every trim leaves a notice.

use std::sync::Arc;

use serde_json::Value;
use vibe_llm::ToolDef;
use vibe_store::SkillView;
use vibe_wire::{Phase, SectionTokens};

use super::render::{Shape, compact, head_and_tail, is_blank, opening, shape_json};
use super::sections::{
    SEPARATOR, Section, join, join_turn, seam_slack, section_tokens, tools_tokens,
    turn_wrapper_tokens,
};
use super::statics::Statics;
use super::texts;
use super::tool_forms::short_tools;
use super::{BuiltPrompt, ContextBuilder};

/// Characters kept of each rule file at step 5.
const OPENING_CHARS: usize = 240;
/// Characters kept of the persona at step 9.
const PERSONA_CHARS: usize = 400;
/// The shape of state and profile after their trim step.
const SHORT: Shape = Shape { list_items: 5, text_chars: 200 };
/// The longest text value shown untrimmed.
const TEXT_CHARS: usize = 500;

/// Everything a phase-2 prompt is made of, before fitting.
pub(crate) struct Parts {
    pub persona_mode: Option<String>,
    pub voice: &'static str,
    /// The persona and the guide (rules or scenario), rendered and counted per file version.
    pub statics: Arc<Statics>,
    pub ethics: Option<String>,
    /// Rendered matched cases, best first.
    pub cases: Arc<Vec<String>>,
    /// Declared profile fields and their values (`None`: not provided).
    pub profile: Vec<(String, Option<Value>)>,
    /// `skills.<name>`.
    pub state_path: String,
    pub view: Arc<SkillView>,
    pub protocol: Option<String>,
    pub summary: Option<String>,
}

/// How far each trimmable part has been trimmed.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
struct Levels {
    cases_dropped: usize,
    state_short: bool,
    /// Guide files cut to their opening, counted from the last.
    guide_cut: usize,
    profile_short: bool,
    /// 0 whole, 1 half, 2 a quarter.
    summary: u8,
    guide_dropped: usize,
    state_omitted: bool,
    tools_short: bool,
    persona_short: bool,
}

/// The sections in prompt order.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Slot {
    Persona,
    PersonaMode,
    Voice,
    Guide,
    Ethics,
    Boundaries,
    Wellbeing,
    Language,
    Cases,
    Profile,
    State,
    Protocol,
    Summary,
}

const SLOTS: [Slot; 13] = [
    Slot::Persona,
    Slot::PersonaMode,
    Slot::Voice,
    Slot::Guide,
    Slot::Ethics,
    Slot::Boundaries,
    Slot::Wellbeing,
    Slot::Language,
    Slot::Cases,
    Slot::Profile,
    Slot::State,
    Slot::Protocol,
    Slot::Summary,
];

/// Whether a section changes from turn to turn, and so rides with the latest user message
/// instead of sitting in the system prompt.
fn per_turn(slot: Slot) -> bool {
    matches!(slot, Slot::Cases | Slot::Profile | Slot::State | Slot::Protocol | Slot::Summary)
}

/// The next trim in priority order, and the section it changes; `None` when nothing is left
/// to trim.
fn next_step(parts: &Parts, l: Levels, has_tools: bool) -> Option<(Levels, Slot)> {
    let state_present = !is_blank(&parts.view.state);
    let guide_items = parts.statics.guide.as_ref().map_or(0, |g| g.items.len());
    if l.cases_dropped < parts.cases.len() {
        return Some((Levels { cases_dropped: l.cases_dropped + 1, ..l }, Slot::Cases));
    }
    if !l.state_short && state_present {
        return Some((Levels { state_short: true, ..l }, Slot::State));
    }
    if !l.profile_short && parts.profile.iter().any(|(_, v)| v.is_some()) {
        return Some((Levels { profile_short: true, ..l }, Slot::Profile));
    }
    if l.summary < 2 && parts.summary.is_some() {
        return Some((Levels { summary: l.summary + 1, ..l }, Slot::Summary));
    }
    if l.guide_cut < guide_items {
        return Some((Levels { guide_cut: l.guide_cut + 1, ..l }, Slot::Guide));
    }
    if l.guide_dropped < guide_items {
        return Some((Levels { guide_dropped: l.guide_dropped + 1, ..l }, Slot::Guide));
    }
    if !l.state_omitted && state_present {
        return Some((Levels { state_omitted: true, ..l }, Slot::State));
    }
    if !l.tools_short && has_tools {
        // No section changes: the tools are fitted beside the sections.
        return Some((Levels { tools_short: true, ..l }, Slot::Persona));
    }
    if !l.persona_short {
        return Some((Levels { persona_short: true, ..l }, Slot::Persona));
    }
    None
}

/// A rendered section and, for sections made of independent lines, its token count (each
/// line counted on its own, so only a changed line is tokenised again).
struct Rendered {
    text: String,
    tokens: Option<u32>,
}

impl From<String> for Rendered {
    fn from(text: String) -> Self {
        Self { text, tokens: None }
    }
}

impl ContextBuilder {
    /// `heading` and `lines` joined by newlines, counted line by line.
    fn lines(&self, heading: &str, lines: &[String]) -> Rendered {
        let newline = self.tk.count("\n");
        let tokens =
            self.tk.count(heading) + lines.iter().map(|l| newline + self.tk.count(l)).sum::<u32>();
        let mut text = String::from(heading);
        for line in lines {
            text.push('\n');
            text.push_str(line);
        }
        Rendered { text, tokens: Some(tokens) }
    }

    fn render(&self, slot: Slot, p: &Parts, l: Levels) -> Option<Rendered> {
        let untrimmed =
            |text: &str, tokens: u32| Rendered { text: text.to_string(), tokens: Some(tokens) };
        match slot {
            Slot::Persona if !l.persona_short => {
                return Some(untrimmed(&p.statics.persona, p.statics.persona_tokens));
            }
            Slot::Guide if l.guide_cut == 0 && l.guide_dropped == 0 => {
                return p.statics.guide_text.as_ref().map(|(text, n)| untrimmed(text, *n));
            }
            _ => {}
        }
        self.render_text(slot, p, l).map(Rendered::from).or_else(|| self.render_lines(slot, p, l))
    }

    /// The sections made of independent pieces, counted piece by piece: the profile (one line
    /// per field), the state (one line per top-level key), the cases (one block per case) and
    /// the summary (one line per fact).
    fn render_lines(&self, slot: Slot, p: &Parts, l: Levels) -> Option<Rendered> {
        let full =
            Shape { list_items: self.limits.state_list_items as usize, text_chars: TEXT_CHARS };
        match slot {
            Slot::Profile if !p.profile.is_empty() => {
                let shape = if l.profile_short { SHORT } else { full };
                let lines: Vec<String> = p
                    .profile
                    .iter()
                    .map(|(field, value)| match value.as_ref().filter(|v| !is_blank(v)) {
                        Some(v) => format!("- {field}：{}", compact(&shape_json(v, shape))),
                        None => format!("- {field}：{}", texts::NOT_PROVIDED),
                    })
                    .collect();
                Some(self.lines(texts::PROFILE_HEADING, &lines))
            }
            Slot::State => {
                let heading = format!("## 技能记录（{}）", p.state_path);
                let state = &p.view.state;
                let lines: Vec<String> = if is_blank(state) {
                    vec![texts::STATE_EMPTY.to_string()]
                } else if l.state_omitted {
                    vec!["（记录较多，这里从略；需要时调用 read_state 读取。）".to_string()]
                } else {
                    let shape = if l.state_short { SHORT } else { full };
                    match shape_json(state, shape) {
                        Value::Object(map) => map
                            .iter()
                            .filter(|(_, v)| !is_blank(v))
                            .map(|(k, v)| format!("- {k}：{}", compact(v)))
                            .collect(),
                        other => vec![compact(&other)],
                    }
                };
                Some(self.lines(&heading, &lines))
            }
            Slot::Cases => {
                // Counted case by case: a new message usually matches cases counted before.
                let kept = &p.cases[..p.cases.len().saturating_sub(l.cases_dropped)];
                if kept.is_empty() {
                    return None;
                }
                let text = format!("{}\n\n{}", texts::CASES_HEADING, kept.join("\n\n"));
                let gap = self.tk.count("\n\n");
                let tokens = self.tk.count(texts::CASES_HEADING)
                    + kept.iter().map(|c| gap + self.tk.count(c)).sum::<u32>();
                Some(Rendered { text, tokens: Some(tokens) })
            }
            Slot::Summary => {
                let summary = p.summary.as_ref()?;
                let full_tokens = self.tk.count_lines(summary).min(self.limits.summary_max_tokens);
                let cap = full_tokens >> l.summary;
                let shown = head_and_tail(self.tk, summary, cap);
                let lines: Vec<String> = shown.split('\n').map(str::to_string).collect();
                Some(self.lines(texts::SUMMARY_HEADING, &lines))
            }
            _ => None,
        }
    }

    /// The sections rendered as one text.
    fn render_text(&self, slot: Slot, p: &Parts, l: Levels) -> Option<String> {
        match slot {
            Slot::Persona => Some(opening(&p.statics.persona, PERSONA_CHARS)),
            Slot::PersonaMode => p.persona_mode.clone(),
            Slot::Voice => Some(p.voice.to_string()),
            Slot::Guide => {
                let g = p.statics.guide.as_ref()?;
                let kept = g.items.len().saturating_sub(l.guide_dropped);
                if kept == 0 {
                    return None;
                }
                let first_cut = g.items.len().saturating_sub(l.guide_cut);
                let items: Vec<String> = g.items[..kept]
                    .iter()
                    .enumerate()
                    .map(
                        |(i, t)| if i >= first_cut { opening(t, OPENING_CHARS) } else { t.clone() },
                    )
                    .collect();
                Some(format!("{}\n\n{}", g.heading, items.join("\n\n")))
            }
            Slot::Ethics => p.ethics.clone(),
            Slot::Boundaries => Some(texts::BOUNDARIES.to_string()),
            Slot::Wellbeing => Some(texts::WELLBEING.to_string()),
            Slot::Cases | Slot::Profile | Slot::State | Slot::Summary => None,
            Slot::Protocol => p.protocol.clone(),
            Slot::Language => Some(texts::LANGUAGE.to_string()),
        }
    }

    fn slot_tokens(&self, rendered: &Option<Rendered>, slot: Slot) -> u32 {
        let index = usize::from(slot != Slot::Persona);
        let Some(r) = rendered else { return 0 };
        match r.tokens {
            Some(n) => n + if index > 0 { self.tk.count(SEPARATOR) } else { 0 },
            None => section_tokens(self.tk, &Section::new("", r.text.as_str()), index),
        }
    }

    /// Render `parts`, trimming in the documented order until system prompt + tools fit.
    pub(super) fn fit_phase2(
        &self,
        parts: &Parts,
        tools: &[ToolDef],
        skill: &str,
        mut notices: Vec<String>,
    ) -> BuiltPrompt {
        let budget = self.budget(self.limits.phase2_prompt_tokens);
        let mut shown_tools = tools.to_vec();
        let mut tools_cost = tools_tokens(self.tk, tools);
        let mut levels = Levels::default();
        let mut texts: Vec<Option<Rendered>> =
            SLOTS.iter().map(|&s| self.render(s, parts, levels)).collect();
        let mut costs: Vec<u32> =
            SLOTS.iter().zip(&texts).map(|(&s, t)| self.slot_tokens(t, s)).collect();
        let wrapper = |texts: &[Option<Rendered>]| {
            let n = SLOTS.iter().zip(texts).filter(|(s, t)| per_turn(**s) && t.is_some()).count();
            turn_wrapper_tokens(self.tk, n)
        };
        loop {
            let total = costs.iter().sum::<u32>() + tools_cost + wrapper(&texts);
            if total + seam_slack(texts.iter().flatten().count()) <= budget {
                break;
            }
            let Some((next, slot)) = next_step(parts, levels, !tools.is_empty()) else {
                notices.push(format!(
                    "prompt: {total} tokens is over the {budget}-token phase-2 budget after every trim; \
                     the ethics, protocol prompt and tool names are never trimmed"
                ));
                break;
            };
            if next.tools_short != levels.tools_short {
                shown_tools = short_tools(tools);
                tools_cost = tools_tokens(self.tk, &shown_tools);
            }
            levels = next;
            let i = SLOTS.iter().position(|&s| s == slot).unwrap_or(0);
            texts[i] = self.render(slot, parts, levels);
            costs[i] = self.slot_tokens(&texts[i], slot);
        }
        notices.extend(trim_notices(parts, levels, budget));
        let mut wrapper_tokens = wrapper(&texts);
        let (mut counts, mut turn_counts) = (Vec::new(), Vec::new());
        let (mut sections, mut turn) = (Vec::new(), Vec::new());
        for ((&slot, rendered), cost) in SLOTS.iter().zip(texts).zip(costs) {
            let Some(r) = rendered else { continue };
            let name = slot_name(slot, parts);
            if per_turn(slot) {
                // The wrapper's tokens count with the turn's first section.
                let tokens = cost + std::mem::take(&mut wrapper_tokens);
                turn_counts.push(SectionTokens { name: name.to_string(), tokens });
                turn.push(Section::new(name, r.text));
            } else {
                counts.push(SectionTokens { name: name.to_string(), tokens: cost });
                sections.push(Section::new(name, r.text));
            }
        }
        if !shown_tools.is_empty() {
            counts.push(SectionTokens { name: "tools".to_string(), tokens: tools_cost });
        }
        counts.extend(turn_counts);
        let total = counts.iter().map(|c| c.tokens).sum();
        BuiltPrompt {
            phase: Phase::Phase2,
            skill: Some(skill.to_string()),
            system: join(&sections),
            tools: shown_tools,
            turn: join_turn(&turn),
            sections: counts,
            prompt_tokens: total,
            notices,
        }
    }
}

fn slot_name(slot: Slot, parts: &Parts) -> &'static str {
    match slot {
        Slot::Persona => "persona",
        Slot::PersonaMode => "persona_mode",
        Slot::Voice => "voice",
        Slot::Guide => parts.statics.guide.as_ref().map_or("rules", |g| g.kind),
        Slot::Ethics => "ethics",
        Slot::Boundaries => "boundaries",
        Slot::Wellbeing => "wellbeing",
        Slot::Cases => "cases",
        Slot::Profile => "profile",
        Slot::State => "state",
        Slot::Protocol => "protocol",
        Slot::Summary => "summary",
        Slot::Language => "language",
    }
}

/// One notice per trimmed part, describing where it ended up.
fn trim_notices(parts: &Parts, l: Levels, budget: u32) -> Vec<String> {
    let fit = format!("to fit {budget} tokens");
    let mut out = Vec::new();
    if l.cases_dropped > 0 {
        let n = parts.cases.len();
        out.push(format!(
            "cases: {} of {n} matched cases kept; {} left out {fit}",
            n - l.cases_dropped,
            l.cases_dropped
        ));
    }
    if l.state_omitted {
        out.push(format!("state: left out {fit} (the model can read it with read_state)"));
    } else if l.state_short {
        out.push(format!(
            "state: lists cut to their newest {} items and long texts shortened {fit}",
            SHORT.list_items
        ));
    }
    if let Some(g) = &parts.statics.guide {
        if l.guide_cut > 0 {
            out.push(format!(
                "{}: {} of {} files cut to their opening paragraphs, the last first {fit}",
                g.kind,
                l.guide_cut,
                g.items.len()
            ));
        }
        if l.guide_dropped > 0 {
            out.push(format!(
                "{}: {} of {} files left out {fit}",
                g.kind,
                l.guide_dropped,
                g.items.len()
            ));
        }
    }
    if l.tools_short {
        out.push(format!(
            "tools: descriptions cut to their first sentence, schemas without descriptions {fit}"
        ));
    }
    if l.persona_short {
        out.push(format!("persona: cut to its opening paragraph {fit}"));
    }
    if l.profile_short {
        out.push(format!(
            "profile: lists cut to their newest {} items and long texts shortened {fit}",
            SHORT.list_items
        ));
    }
    if l.summary > 0 {
        out.push(format!("summary: shortened to its first and last lines {fit}"));
    }
    out
}
