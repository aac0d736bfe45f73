//! Status lines for protocol events (invitation, a lapsed invitation, progress with a text bar, paused, completed,
//! cancelled): shown the same way live in `vibe chat` and in `vibe runs replay`.

use vibe_wire::{Event, ProtocolAction};

/// Width of the progress bar in cells.
const BAR_CELLS: usize = 20;

/// The lines for a protocol event; `None` for other events.
pub(crate) fn protocol_lines(event: &Event) -> Option<Vec<String>> {
    Some(match event {
        Event::ProtocolInvitation { protocol_id, title, estimated_time, actions, .. } => {
            let time = estimated_time.as_deref().map(|t| format!(" · {t}")).unwrap_or_default();
            vec![
                format!("◇ protocol invitation: {title} ({protocol_id}){time}"),
                format!("  {}", choices(protocol_id, actions)),
            ]
        }
        Event::ProtocolInvitationLapsed { protocol_id, .. } => vec![format!(
            "◇ protocol invitation {protocol_id} lapsed: nothing started (ask the coach, or vibe protocol start {protocol_id})"
        )],
        Event::ProtocolProgress { protocol_id, step, total_steps, step_name, progress, .. } => {
            vec![format!(
                "{} {:>3}% {protocol_id} step {step}/{total_steps}: {step_name}",
                bar(*progress),
                (progress.clamp(0.0, 1.0) * 100.0).round() as u32
            )]
        }
        Event::ProtocolPaused { protocol_id, protocol_run_id, step, total_steps } => vec![format!(
            "⏸ protocol {protocol_id} paused at step {step}/{total_steps} (resume: vibe protocol resume {protocol_run_id})"
        )],
        Event::ProtocolCompleted { protocol_id, protocol_run_id, summary } => vec![
            format!("{} 100% {protocol_id} completed", bar(1.0)),
            format!("  {summary}"),
            format!("  report: vibe protocol export {protocol_run_id} --format md"),
        ],
        Event::ProtocolCancelled { protocol_id, reason, .. } => vec![match reason {
            Some(r) => format!("✗ protocol {protocol_id} cancelled: {r} (its answers are kept)"),
            None => format!("✗ protocol {protocol_id} cancelled (its answers are kept)"),
        }],
        _ => return None,
    })
}

/// `[██████░░░░]` for a share 0–1.
pub(crate) fn bar(progress: f64) -> String {
    let filled = (progress.clamp(0.0, 1.0) * BAR_CELLS as f64).round() as usize;
    format!("[{}{}]", "█".repeat(filled), "░".repeat(BAR_CELLS - filled))
}

fn choices(protocol_id: &str, actions: &[ProtocolAction]) -> String {
    let mut out: Vec<String> = actions
        .iter()
        .map(|a| format!("{} → vibe protocol {} {protocol_id}", a.label, a.value))
        .collect();
    if out.is_empty() {
        out.push(format!("start → vibe protocol start {protocol_id}"));
    }
    out.join(" · ")
}

#[cfg(test)]
mod tests {
    use super::*;
    use vibe_wire::ProtocolChoice;

    #[test]
    fn progress_shows_a_bar_step_and_name() {
        let lines = protocol_lines(&Event::ProtocolProgress {
            protocol_id: "dankoe".into(),
            protocol_run_id: "p1".into(),
            step: 4,
            total_steps: 6,
            step_name: "打断自动驾驶".into(),
            phase: Some("daytime".into()),
            progress: 0.5,
            step_names: Vec::new(),
            step_names_en: Vec::new(),
        })
        .unwrap();
        assert_eq!(lines, vec!["[██████████░░░░░░░░░░]  50% dankoe step 4/6: 打断自动驾驶"]);
    }

    #[test]
    fn invitations_name_the_commands_that_answer_them() {
        let lines = protocol_lines(&Event::ProtocolInvitation {
            skill: "lifecoach".into(),
            protocol_id: "dankoe".into(),
            title: "一日人生重置".into(),
            description: "d".into(),
            estimated_time: None,
            actions: vec![
                ProtocolAction { label: "开始".into(), value: ProtocolChoice::Start },
                ProtocolAction { label: "稍后".into(), value: ProtocolChoice::Later },
            ],
            title_en: None,
            description_en: None,
            estimated_time_en: None,
        })
        .unwrap();
        assert_eq!(
            lines[1],
            "  开始 → vibe protocol start dankoe · 稍后 → vibe protocol later dankoe"
        );
        assert!(protocol_lines(&Event::RoundStarted { round: 1 }).is_none());
    }
}
