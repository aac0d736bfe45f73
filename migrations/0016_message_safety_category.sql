-- 0016: a safety mark keeps what kind of risk it was (docs/safety.md#in-the-chat-turn), so a
-- conversation opened again shows the same notice, on this device and on a synced one. Marks
-- made before this migration keep their risk with no category (the notice then names none).
ALTER TABLE messages ADD COLUMN safety_category TEXT CHECK (
    safety_category IS NULL
    OR safety_category IN ('suicide', 'self_harm', 'harm_others', 'abuse', 'medical')
);
