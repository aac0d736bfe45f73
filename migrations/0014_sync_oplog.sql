-- 0014: end-to-end encrypted sync, first slice (docs/sync.md#for-engineers). Nothing here is
-- written until sync is set up (`sync_state` has its one row): then every write of a skill-state
-- list entry also records an operation in `sync_ops`, in the same transaction.

-- This device: its id, the last hybrid logical clock value it issued or saw, the next batch
-- number to seal, how far sealed batches were written to the target, its last run.
CREATE TABLE sync_state (
    one             INTEGER PRIMARY KEY CHECK (one = 1),
    device_id       TEXT NOT NULL,
    hlc             TEXT NOT NULL,
    next_batch      INTEGER NOT NULL DEFAULT 1 CHECK (next_batch >= 1),
    uploaded_through INTEGER NOT NULL DEFAULT 0 CHECK (uploaded_through >= 0),
    -- The end of the last sync run (RFC 3339), NULL before the first.
    last_run        TEXT
) STRICT;

-- This device's own operations, oldest first; `batch` is set when they are sealed into a batch
-- file (numbered per device, from 1), and the rows go once it is on the target.
CREATE TABLE sync_ops (
    seq   INTEGER PRIMARY KEY AUTOINCREMENT,
    hlc   TEXT NOT NULL,
    op    TEXT NOT NULL CHECK (json_valid(op)),
    batch INTEGER
) STRICT;
CREATE INDEX sync_ops_by_batch ON sync_ops (batch);

-- Every list entry known to sync, by its id: where it is (`list_id`, `seq` of
-- state_list_items; NULL once gone), the clock of its last write, and whether it was deleted
-- (a tombstone: an entry deleted anywhere stays deleted).
CREATE TABLE sync_entries (
    entry_id TEXT PRIMARY KEY NOT NULL,
    list_id  INTEGER REFERENCES state_lists (id) ON DELETE SET NULL,
    seq      INTEGER,
    hlc      TEXT NOT NULL,
    deleted  INTEGER NOT NULL DEFAULT 0 CHECK (deleted IN (0, 1))
) STRICT;
CREATE INDEX sync_entries_by_place ON sync_entries (list_id, seq);

-- Each other device seen on the target: the next of its batch files to read (its cursor), the
-- name it gave itself (from inside its encrypted batches) and when it was last read from.
CREATE TABLE sync_peers (
    device_id  TEXT PRIMARY KEY NOT NULL,
    next_batch INTEGER NOT NULL DEFAULT 1 CHECK (next_batch >= 1),
    name       TEXT,
    seen_at    TEXT
) STRICT;
