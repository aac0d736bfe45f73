-- The key that seals the run folders (runs/<id>/events.jsonl and large tool outputs) of an
-- encrypted data folder (docs/privacy.md#run-folders). It lives inside the encrypted database,
-- so the database key protects it and it travels with every backup. One row at most; a clear
-- database (encryption turned off) never gets one.
CREATE TABLE run_file_key (
    id         INTEGER PRIMARY KEY CHECK (id = 1),
    key        BLOB NOT NULL CHECK (length(key) = 32),
    created_at TEXT NOT NULL
) STRICT;
