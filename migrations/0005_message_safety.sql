-- Issue #11: a person's message that the wellbeing screen rated `concern` or `acute` is
-- marked here; memory extraction (later) must skip every marked message (docs/safety.md).
ALTER TABLE messages ADD COLUMN safety TEXT CHECK (safety IS NULL OR safety IN ('concern', 'acute'));
