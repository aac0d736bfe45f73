//! Screen one message per stdin line with a rules file given as the first argument — the
//! rules alone, without the learned detector — and print each screening as a JSON line; with
//! `--prepare` after it, print instead the text the rules and the learned detector read
//! (`RuleSet::prepare`) and whether a guard blanked part of it, as a JSON pair.
//! `scripts/safety-learn.py` uses both while it trains the learned detector and picks its
//! threshold.

use std::io::{BufRead, Write};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut args = std::env::args().skip(1);
    let path = args.next().ok_or("usage: screen_rules RULES.yaml [--prepare] < messages")?;
    let prepare = args.next().as_deref() == Some("--prepare");
    let yaml = std::fs::read_to_string(&path)?;
    let rules = vibe_agent::safety::RuleSet::parse(&yaml, &path)?;
    let mut out = std::io::stdout().lock();
    for line in std::io::stdin().lock().lines() {
        let line = line?;
        if prepare {
            writeln!(out, "{}", serde_json::to_string(&rules.prepare(&line))?)?;
        } else {
            writeln!(out, "{}", serde_json::to_string(&rules.screen(&line))?)?;
        }
    }
    Ok(())
}
