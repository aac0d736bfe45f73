-- 0012: destructive changes in the undo history (issue 28). A change that removed the person's
-- data (an append that dropped entries, a write that replaced or deleted a non-empty list or
-- object, an undo) is marked `destructive = 1`: it and every later change of its target are
-- kept for 90 days whatever the row cap, so the loss stays undoable. Rows written before this
-- migration are ordinary.
ALTER TABLE state_history ADD COLUMN destructive INTEGER NOT NULL DEFAULT 0
    CHECK (destructive IN (0, 1));
