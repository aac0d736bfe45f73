-- 0007: undo history of the person's data (docs/design.md#undo). Before every change to a
-- skill's state or to the profile's own sections, the previous value is kept here, in the same
-- transaction as the change. `target` is a skill id, or '@profile' for the profile's sections
-- other than `skills`. `kind` says what `before` holds: 'whole' the target's whole previous
-- value (NULL: nothing was stored), 'keys' the previous values of the top-level keys a write
-- touched, 'append' the entries an append trimmed (an append stays O(1)). Pruned on write:
-- older than 30 days, and beyond a per-target row cap.
CREATE TABLE state_history (
    id      INTEGER PRIMARY KEY,
    user_id TEXT NOT NULL,
    target  TEXT NOT NULL,
    at      TEXT NOT NULL,
    path    TEXT NOT NULL,
    by      TEXT NOT NULL CHECK (by IN ('model', 'cli', 'app', 'import')),
    run_id  TEXT,
    summary TEXT NOT NULL,
    kind    TEXT NOT NULL CHECK (kind IN ('whole', 'keys', 'append')),
    before  TEXT CHECK (before IS NULL OR (json_valid(before) AND json_type(before) = 'object'))
) STRICT;
CREATE INDEX state_history_by_target ON state_history (user_id, target, id);
