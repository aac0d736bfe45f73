use super::*;

fn budgets() -> Budgets {
    Budgets {
        max_rounds: 3,
        max_tool_calls: 4,
        max_script_runs: 1,
        max_context_tokens: 1000,
        max_consecutive_failures: 3,
    }
}

fn ok(name: &str) -> ToolReport {
    ToolReport { name: name.into(), is_error: false }
}

fn fail(name: &str) -> ToolReport {
    ToolReport { name: name.into(), is_error: true }
}

fn runs(action: &Action) -> usize {
    match action {
        Action::RunTools { calls } => {
            calls.iter().filter(|c| c.verdict == CallVerdict::Run).count()
        }
        other => panic!("expected RunTools, got {other:?}"),
    }
}

#[test]
fn an_answer_without_tool_calls_completes_the_run() {
    let mut m = Machine::new(budgets());
    assert_eq!(m.start(), Action::CallModel { round: 1 });
    assert_eq!(m.on_model_answer(&[]), Action::Finish { reason: StopReason::Completed });
    assert!(m.is_done());
}

#[test]
fn tool_rounds_continue_until_max_rounds_then_close_gracefully() {
    let mut m = Machine::new(budgets());
    m.start();
    for round in 2..=3 {
        assert_eq!(runs(&m.on_model_answer(&[Some(ToolKind::Data)])), 1);
        assert_eq!(m.on_tools_done(&[ok("read_state")]), Action::CallModel { round });
    }
    m.on_model_answer(&[Some(ToolKind::Data)]);
    assert_eq!(
        m.on_tools_done(&[ok("read_state")]),
        Action::Close { reason: StopReason::MaxRounds }
    );
    assert!(m.is_closing());
    // The closing answer ends the run even if it (wrongly) asks for tools.
    assert_eq!(
        m.on_model_answer(&[Some(ToolKind::Data)]),
        Action::Finish { reason: StopReason::MaxRounds }
    );
}

#[test]
fn tool_calls_beyond_the_budget_are_refused_and_the_run_closes() {
    let mut m = Machine::new(budgets());
    m.start();
    let action = m.on_model_answer(&[Some(ToolKind::Data); 6]);
    assert_eq!(runs(&action), 4);
    let Action::RunTools { calls } = action else { unreachable!() };
    assert!(matches!(&calls[5].verdict, CallVerdict::Refuse(why) if why.contains("4 tool calls")));
    assert_eq!(
        m.on_tools_done(&[ok("a"), ok("b"), ok("c"), ok("d")]),
        Action::Close { reason: StopReason::MaxToolCalls }
    );
}

#[test]
fn script_runs_have_their_own_budget() {
    let mut m = Machine::new(budgets());
    m.start();
    let Action::RunTools { calls } =
        m.on_model_answer(&[Some(ToolKind::Script), Some(ToolKind::Script), Some(ToolKind::Data)])
    else {
        panic!()
    };
    assert_eq!(calls[0].verdict, CallVerdict::Run);
    assert!(matches!(&calls[1].verdict, CallVerdict::Refuse(why) if why.contains("script runs")));
    assert_eq!(calls[2].verdict, CallVerdict::Run);
    assert_eq!(
        m.on_tools_done(&[ok("run_script"), ok("read_state")]),
        Action::Close { reason: StopReason::MaxScriptRuns }
    );
}

#[test]
fn the_same_tool_failing_three_times_in_a_row_stops_the_run() {
    let mut m = Machine::new(Budgets { max_rounds: 10, ..budgets() });
    m.start();
    m.on_model_answer(&[Some(ToolKind::Data), Some(ToolKind::Data)]);
    assert_eq!(
        m.on_tools_done(&[fail("write_state"), fail("write_state")]),
        Action::CallModel { round: 2 }
    );
    m.on_model_answer(&[Some(ToolKind::Data)]);
    assert_eq!(
        m.on_tools_done(&[fail("write_state")]),
        Action::Close { reason: StopReason::RepeatedToolFailure }
    );
}

#[test]
fn failures_of_different_tools_or_a_success_reset_the_guard() {
    let mut m = Machine::new(Budgets { max_rounds: 10, max_tool_calls: 20, ..budgets() });
    m.start();
    m.on_model_answer(&[Some(ToolKind::Data); 4]);
    let next = m.on_tools_done(&[fail("a"), fail("a"), ok("a"), fail("a")]);
    assert_eq!(next, Action::CallModel { round: 2 });
    m.on_model_answer(&[Some(ToolKind::Data); 3]);
    assert_eq!(m.on_tools_done(&[fail("a"), fail("b"), fail("a")]), Action::CallModel { round: 3 });
}

#[test]
fn an_oversized_prompt_stops_before_calling_the_model() {
    let mut m = Machine::new(budgets());
    m.start();
    assert_eq!(m.on_prompt(999), None);
    assert_eq!(m.on_prompt(1001), Some(Action::Finish { reason: StopReason::MaxContextTokens }));
}

#[test]
fn model_errors_and_cancels_finish_at_once() {
    let mut m = Machine::new(budgets());
    m.start();
    assert_eq!(m.on_model_error(), Action::Finish { reason: StopReason::ModelError });
    let mut m = Machine::new(budgets());
    m.start();
    m.on_model_answer(&[Some(ToolKind::Data)]);
    assert_eq!(m.on_cancel(), Action::Finish { reason: StopReason::Cancelled });
}

#[test]
fn zero_round_budget_closes_immediately() {
    let mut m = Machine::new(Budgets { max_rounds: 0, ..budgets() });
    assert_eq!(m.start(), Action::Close { reason: StopReason::MaxRounds });
}
