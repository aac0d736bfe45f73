-- 0013: the person clears the undo history (issue 28 §2). A destructive change is kept until the
-- person clears it or 90 days pass, whichever is later: `cleared = 1` marks a destructive change
-- the person has cleared while it was younger than 90 days; it goes once 90 days old. An
-- uncleared destructive change (and every later change of its target) is never pruned.
ALTER TABLE state_history ADD COLUMN cleared INTEGER NOT NULL DEFAULT 0
    CHECK (cleared IN (0, 1));
