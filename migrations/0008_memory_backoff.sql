-- Failed memory extraction passes (docs/memory.md#when-a-pass-fails): a conversation whose
-- last pass failed is not read again by itself before `next_try_at` (the wait doubles with
-- each failure, capped). A pass that succeeds removes the row in its own transaction.
CREATE TABLE memory_backoff (
    conversation_id TEXT PRIMARY KEY NOT NULL REFERENCES conversations (id) ON DELETE CASCADE,
    failures        INTEGER NOT NULL CHECK (failures >= 1),
    last_error      TEXT NOT NULL,
    failed_at       TEXT NOT NULL,
    next_try_at     TEXT NOT NULL
) STRICT;
