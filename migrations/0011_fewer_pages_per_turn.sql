-- 0011: two fewer database pages written per chat turn (docs/performance.md, issue 14).
--
-- `runs` becomes a WITHOUT ROWID table keyed by its id: a rowid table with a TEXT primary key
-- keeps a separate index of the ids, one more page written by every new run. The table is
-- rebuilt (SQLite cannot change this in place). Dropping the old table sets every
-- `messages.run_id` to NULL (its foreign key says ON DELETE SET NULL), so the links are kept
-- aside first and put back after; rows, ids and the index stay as they were.
--
-- `conversations_by_user` goes: moving `updated_at` on every message the person sends rewrote
-- an index page too, and listing a person's conversations sorts a few hundred rows at most.

CREATE TEMP TABLE run_links AS SELECT id, run_id FROM messages WHERE run_id IS NOT NULL;

CREATE TABLE runs_next (
    id              TEXT PRIMARY KEY NOT NULL,
    conversation_id TEXT REFERENCES conversations (id) ON DELETE CASCADE,
    status          TEXT NOT NULL CHECK (status IN ('running', 'completed', 'failed', 'cancelled')),
    stop_reason     TEXT,
    usage           TEXT CHECK (usage IS NULL OR json_valid(usage)),
    started_at      TEXT NOT NULL,
    finished_at     TEXT
) STRICT, WITHOUT ROWID;

INSERT INTO runs_next (id, conversation_id, status, stop_reason, usage, started_at, finished_at)
SELECT id, conversation_id, status, stop_reason, usage, started_at, finished_at FROM runs;

DROP TABLE runs;
ALTER TABLE runs_next RENAME TO runs;
CREATE INDEX runs_by_conversation ON runs (conversation_id, started_at);

UPDATE messages SET run_id = (SELECT l.run_id FROM run_links l WHERE l.id = messages.id)
WHERE id IN (SELECT id FROM run_links);
DROP TABLE run_links;

DROP INDEX conversations_by_user;
