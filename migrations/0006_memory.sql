-- 0006 (issue #11): memory the person owns — the `extracted` items drawn from conversations
-- (docs/memory.md). Never edit a shipped migration; add a new numbered file instead.

-- One remembered item. A forgotten item stays as a tombstone (`forgotten_at` set, text and
-- history emptied) so that extraction never brings it back from the same source messages.
CREATE TABLE memory_items (
    id           TEXT PRIMARY KEY NOT NULL,
    user_id      TEXT NOT NULL,
    kind         TEXT NOT NULL CHECK (kind IN ('facts', 'concerns', 'goals', 'patterns', 'pain_points')),
    text         TEXT NOT NULL,
    confidence   REAL NOT NULL CHECK (confidence >= 0.0 AND confidence <= 1.0),
    first_seen   TEXT NOT NULL,
    last_seen    TEXT NOT NULL,
    -- 1 once the person edited the text: a later merge keeps their words.
    edited       INTEGER NOT NULL DEFAULT 0 CHECK (edited IN (0, 1)),
    -- Replaced versions, newest last: [{"text", "confidence", "replaced_at"}].
    history      TEXT NOT NULL DEFAULT '[]' CHECK (json_valid(history) AND json_type(history) = 'array'),
    forgotten_at TEXT,
    updated_at   TEXT NOT NULL,
    CHECK (forgotten_at IS NOT NULL OR length(trim(text)) > 0)
) STRICT;
CREATE INDEX memory_items_by_user ON memory_items (user_id, kind, last_seen);

-- Where an item came from: the person's messages (ids kept even after the conversation is
-- deleted, so a tombstone still blocks them).
CREATE TABLE memory_sources (
    item_id         TEXT NOT NULL REFERENCES memory_items (id) ON DELETE CASCADE,
    conversation_id TEXT NOT NULL,
    message_id      INTEGER NOT NULL,
    PRIMARY KEY (item_id, message_id)
) STRICT, WITHOUT ROWID;
CREATE INDEX memory_sources_by_message ON memory_sources (message_id);

-- The extraction watermark: messages up to this id were read once and are never read again.
CREATE TABLE memory_watermarks (
    conversation_id    TEXT PRIMARY KEY NOT NULL REFERENCES conversations (id) ON DELETE CASCADE,
    through_message_id INTEGER NOT NULL,
    extracted_at       TEXT NOT NULL
) STRICT;
