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
    assert_eq!(m.on_model_answer(&[]).next, Action::Finish { reason: StopReason::Completed });
    assert!(m.is_done());
}

#[test]
fn tool_rounds_continue_until_max_rounds_then_close_gracefully() {
    let mut m = Machine::new(budgets());
    m.start();
    for round in 2..=3 {
        assert_eq!(runs(&m.on_model_answer(&[Some(ToolKind::Data)]).next), 1);
        assert_eq!(m.on_tools_done(&[ok("read_state")]), Action::CallModel { round });
    }
    m.on_model_answer(&[Some(ToolKind::Data)]);
    assert_eq!(
        m.on_tools_done(&[ok("read_state")]),
        Action::Close { reason: StopReason::MaxRounds }
    );
    assert!(m.is_closing());
    assert_eq!(m.round(), 4, "the closing call is a round of its own");
    // The closing answer ends the run even if it (wrongly) asks for tools.
    m.on_text();
    assert_eq!(
        m.on_model_answer(&[Some(ToolKind::Data)]).next,
        Action::Finish { reason: StopReason::MaxRounds }
    );
}

#[test]
fn tool_calls_beyond_the_budget_are_refused_and_the_run_closes() {
    let mut m = Machine::new(budgets());
    m.start();
    let action = m.on_model_answer(&[Some(ToolKind::Data); 6]).next;
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
    let Action::RunTools { calls } = m
        .on_model_answer(&[Some(ToolKind::Script), Some(ToolKind::Script), Some(ToolKind::Data)])
        .next
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
    // Nothing was said yet: the fixed text explains the stop.
    assert_eq!(
        m.on_prompt(1001),
        Some(Action::SayFallback { reason: StopReason::MaxContextTokens })
    );
    let mut m = Machine::new(budgets());
    m.start();
    m.on_text();
    m.on_model_answer(&[Some(ToolKind::Data)]);
    m.on_tools_done(&[ok("read_state")]);
    assert_eq!(m.on_prompt(1001), Some(Action::Finish { reason: StopReason::MaxContextTokens }));
}

/// The machine, closing after `max_rounds` tool rounds (budget of 1 round).
fn closing() -> Machine {
    let mut m = Machine::new(Budgets { max_rounds: 1, ..budgets() });
    m.start();
    m.on_model_answer(&[Some(ToolKind::Data)]);
    assert_eq!(m.on_tools_done(&[ok("a")]), Action::Close { reason: StopReason::MaxRounds });
    m
}

#[test]
fn the_fixed_closing_text_stands_in_when_the_closing_call_fails_does_not_fit_or_says_nothing() {
    let mut failed = closing();
    assert_eq!(failed.on_model_error(), Action::SayFallback { reason: StopReason::MaxRounds });
    assert!(failed.is_done());

    let mut too_big = closing();
    assert_eq!(
        too_big.on_prompt(5000),
        Some(Action::SayFallback { reason: StopReason::MaxRounds })
    );

    let mut silent = closing();
    assert_eq!(
        silent.on_model_answer(&[]).next,
        Action::SayFallback { reason: StopReason::MaxRounds }
    );

    let mut answered = closing();
    answered.on_text();
    assert_eq!(
        answered.on_model_answer(&[]).next,
        Action::Finish { reason: StopReason::MaxRounds }
    );
    assert_eq!(answered.round(), 2);
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
    assert_eq!(m.round(), 1, "the closing call is round 1");
}

#[test]
fn a_cancel_during_tools_answers_only_the_calls_that_had_not_finished() {
    let mut m = Machine::new(budgets());
    m.start();
    m.on_model_answer(&[Some(ToolKind::Data); 4]);
    let (unanswered, action) = m.on_tools_cancelled(4, &[2, 0]);
    assert_eq!(unanswered, [1, 3]);
    assert_eq!(action, Action::Finish { reason: StopReason::Cancelled });
    assert!(m.is_done());
}

#[test]
fn an_answer_that_ends_the_run_is_stored_with_the_close_any_other_at_once() {
    // Tool calls follow: stored with the first of their results, before it.
    let mut m = Machine::new(budgets());
    m.start();
    assert_eq!(m.on_model_answer(&[Some(ToolKind::Data)]).store, StoreAnswer::WithResults);
    m.on_tools_done(&[ok("read_state")]);
    // The plain last answer: with the run's close.
    m.on_text();
    let last = m.on_model_answer(&[]);
    assert_eq!(
        last,
        Answered {
            store: StoreAnswer::WithClose,
            next: Action::Finish { reason: StopReason::Completed }
        }
    );

    // Tool calls refused by the budget still get results: stored now.
    let mut m = Machine::new(Budgets { max_tool_calls: 0, ..budgets() });
    m.start();
    let refused = m.on_model_answer(&[Some(ToolKind::Data)]);
    assert_eq!(refused.store, StoreAnswer::WithResults);
    assert_eq!(runs(&refused.next), 0);

    // A closing answer, even an empty one the fixed text replaces, goes with the close.
    let mut silent = closing();
    assert_eq!(silent.on_model_answer(&[]).store, StoreAnswer::WithClose);
    let mut answered = closing();
    answered.on_text();
    assert_eq!(answered.on_model_answer(&[Some(ToolKind::Data)]).store, StoreAnswer::WithClose);
}
