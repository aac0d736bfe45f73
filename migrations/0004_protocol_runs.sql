-- 0004: protocol runs. One row per run of a coaching protocol (skills/<skill>/protocols/<id>.yaml):
-- which protocol and version, where it is, every step's collected data, and the model that ran
-- it. The active run of a skill is also mirrored at profile `skills.<skill>.protocol` (seed 000
-- §5.3) by the store in the same transaction; this table keeps every run, finished or not.
CREATE TABLE protocol_runs (
    id               TEXT PRIMARY KEY NOT NULL,
    user_id          TEXT NOT NULL,
    skill            TEXT NOT NULL,
    protocol_id      TEXT NOT NULL,
    protocol_version INTEGER NOT NULL CHECK (protocol_version >= 1),
    status           TEXT NOT NULL CHECK (status IN ('active', 'paused', 'completed', 'cancelled')),
    -- The current step, 1-based; equal to total_steps once completed.
    step             INTEGER NOT NULL CHECK (step >= 1 AND step <= total_steps),
    total_steps      INTEGER NOT NULL CHECK (total_steps >= 1),
    -- {"step_1": {...}, "step_2": {...}}: each step's fields as collected.
    data             TEXT NOT NULL DEFAULT '{}' CHECK (json_valid(data) AND json_type(data) = 'object'),
    -- {"step_1": "one-line summary", ...}
    summaries        TEXT NOT NULL DEFAULT '{}' CHECK (json_valid(summaries) AND json_type(summaries) = 'object'),
    conversation_id  TEXT REFERENCES conversations (id) ON DELETE SET NULL,
    model            TEXT,
    cancel_reason    TEXT,
    started_at       TEXT NOT NULL,
    last_activity_at TEXT NOT NULL,
    completed_at     TEXT
) STRICT;
CREATE INDEX protocol_runs_by_skill ON protocol_runs (user_id, skill, last_activity_at);
-- At most one active run per skill (seed 000 §7.2 as answered by issue 10).
CREATE UNIQUE INDEX protocol_runs_one_active ON protocol_runs (user_id, skill) WHERE status = 'active';
