-- 0011: one fewer database page written per message the person sends (docs/performance.md,
-- issue 14). `conversations_by_user` goes: moving `updated_at` on every message the person
-- sends rewrote an index page too, and listing a person's conversations sorts a few hundred
-- rows at most.
--
-- Measured and not done: making `runs` a WITHOUT ROWID table (to drop the separate index of
-- its TEXT ids) grew the file by 5 % more per turn and made a turn slower: appends to an
-- index-shaped tree leave its pages partly empty.

DROP INDEX conversations_by_user;
