-- 0015: end-to-end encrypted sync, second slice (docs/sync.md#merge-rules): every kind of data
-- other than list entries (conversations, messages, profile and skill-state values, memory
-- items, protocol runs) has a register here, keyed by kind and synced id: the clock value of
-- its last write, whether it was deleted (a tombstone, kept) and, where the merge needs it,
-- the value last written. Nothing is written here until sync is set up.
CREATE TABLE sync_rows (
    -- 'conversation', 'message', 'doc' (a profile or skill-state path), 'memory', 'protocol_run'.
    kind    TEXT NOT NULL,
    -- The id that travels between devices (a message's UUID, `<user>\x1f<path>` for a path).
    key     TEXT NOT NULL,
    -- The local row it maps to where that differs from the key (a message's rowid).
    local   TEXT,
    hlc     TEXT NOT NULL,
    deleted INTEGER NOT NULL DEFAULT 0 CHECK (deleted IN (0, 1)),
    -- A path's value last set (re-applied over an older write to a path above it), a protocol
    -- run's status as its last write claimed it.
    value   TEXT,
    PRIMARY KEY (kind, key)
) STRICT;
CREATE INDEX sync_rows_by_local ON sync_rows (kind, local);

-- A device removed from sync (`vibe sync remove-device`): no longer listed; its files past the
-- last one written before the removal are refused (the target's key check says which).
ALTER TABLE sync_peers ADD COLUMN removed INTEGER NOT NULL DEFAULT 0 CHECK (removed IN (0, 1));
