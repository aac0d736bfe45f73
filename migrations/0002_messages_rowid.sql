-- 0002: messages keyed by a plain rowid instead of AUTOINCREMENT. AUTOINCREMENT made every
-- stored message also rewrite the `sqlite_sequence` row, one more page per message written to
-- the WAL. Ids stay increasing within a conversation: a new id is always above every id in
-- use, so `summary_through_id` and history windows keep their meaning. The table is rebuilt
-- (SQLite cannot drop AUTOINCREMENT in place); ids, rows and the index are kept as they were.

CREATE TABLE messages_next (
    id              INTEGER PRIMARY KEY,
    conversation_id TEXT NOT NULL REFERENCES conversations (id) ON DELETE CASCADE,
    role            TEXT NOT NULL CHECK (role IN ('system', 'user', 'assistant', 'tool')),
    content         TEXT NOT NULL DEFAULT '',
    tool_calls      TEXT CHECK (tool_calls IS NULL OR (json_valid(tool_calls) AND json_type(tool_calls) = 'array')),
    tool_call_id    TEXT,
    token_count     INTEGER NOT NULL DEFAULT 0 CHECK (token_count >= 0),
    run_id          TEXT REFERENCES runs (id) ON DELETE SET NULL,
    status          TEXT NOT NULL DEFAULT 'complete' CHECK (status IN ('complete', 'interrupted')),
    created_at      TEXT NOT NULL
) STRICT;

INSERT INTO messages_next
    (id, conversation_id, role, content, tool_calls, tool_call_id, token_count, run_id, status, created_at)
SELECT id, conversation_id, role, content, tool_calls, tool_call_id, token_count, run_id, status, created_at
FROM messages;

DROP TABLE messages;
ALTER TABLE messages_next RENAME TO messages;
CREATE INDEX messages_by_conversation ON messages (conversation_id, id);
DELETE FROM sqlite_sequence WHERE name = 'messages';
