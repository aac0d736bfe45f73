-- Protocol reminders already shown as desktop notifications (docs/protocols.md#reminders):
-- one row per run, step and reminder time, so a reminder is notified once, across restarts.
-- A run's rows go with the run.
CREATE TABLE reminder_notices (
    run_id      TEXT NOT NULL REFERENCES protocol_runs (id) ON DELETE CASCADE,
    step        INTEGER NOT NULL CHECK (step >= 1),
    at          TEXT NOT NULL,
    notified_at TEXT NOT NULL,
    PRIMARY KEY (run_id, step, at)
) STRICT;
