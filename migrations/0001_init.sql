-- 0001: the first schema. Never edit a shipped migration; add a new numbered file instead.

-- The profile document of seed 000 §3.2 is stored in three parts so that a write touches
-- only what it changes: `profiles` holds every top-level section but `skills`; each
-- `skills.<skill>` object is one `skill_states` row; a list grown by append_to_list lives in
-- `state_list_items`, one row per entry, at its dotted path inside the skill's state.
CREATE TABLE profiles (
    user_id    TEXT PRIMARY KEY NOT NULL,
    doc        TEXT NOT NULL CHECK (json_valid(doc) AND json_type(doc) = 'object'),
    updated_at TEXT NOT NULL
) STRICT;

CREATE TABLE skill_states (
    user_id    TEXT NOT NULL,
    skill      TEXT NOT NULL,
    doc        TEXT NOT NULL CHECK (json_valid(doc) AND json_type(doc) = 'object'),
    updated_at TEXT NOT NULL,
    PRIMARY KEY (user_id, skill)
) STRICT;

CREATE TABLE state_lists (
    id      INTEGER PRIMARY KEY,
    user_id TEXT NOT NULL,
    skill   TEXT NOT NULL,
    path    TEXT NOT NULL,
    -- seq of the next entry, and how many entries the list holds (kept so an append is O(1)).
    next_seq INTEGER NOT NULL DEFAULT 1,
    len      INTEGER NOT NULL DEFAULT 0,
    UNIQUE (user_id, skill, path),
    FOREIGN KEY (user_id, skill) REFERENCES skill_states (user_id, skill)
        ON DELETE CASCADE DEFERRABLE INITIALLY DEFERRED
) STRICT;

-- Newest entry = highest seq.
CREATE TABLE state_list_items (
    list_id INTEGER NOT NULL REFERENCES state_lists (id) ON DELETE CASCADE,
    seq     INTEGER NOT NULL,
    item    TEXT NOT NULL CHECK (json_valid(item)),
    PRIMARY KEY (list_id, seq)
) STRICT, WITHOUT ROWID;

CREATE TABLE conversations (
    id         TEXT PRIMARY KEY NOT NULL,
    user_id    TEXT NOT NULL,
    title      TEXT,
    skill      TEXT,
    scenario   TEXT,
    voice_mode TEXT,
    -- Compaction (seed 004 §7.3): older turns folded into a summary, through this message id.
    summary    TEXT,
    summary_through_id INTEGER,
    created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL
) STRICT;
CREATE INDEX conversations_by_user ON conversations (user_id, updated_at);

-- One row per agent run; its events live in runs/<id>/events.jsonl in the data dir.
CREATE TABLE runs (
    id              TEXT PRIMARY KEY NOT NULL,
    conversation_id TEXT REFERENCES conversations (id) ON DELETE CASCADE,
    status          TEXT NOT NULL CHECK (status IN ('running', 'completed', 'failed', 'cancelled')),
    stop_reason     TEXT,
    usage           TEXT CHECK (usage IS NULL OR json_valid(usage)),
    started_at      TEXT NOT NULL,
    finished_at     TEXT
) STRICT;
CREATE INDEX runs_by_conversation ON runs (conversation_id, started_at);

-- The only source of chat history (seed 001 §3).
CREATE TABLE messages (
    id              INTEGER PRIMARY KEY AUTOINCREMENT,
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
CREATE INDEX messages_by_conversation ON messages (conversation_id, id);
