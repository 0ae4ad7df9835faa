-- 0020: richer file events. For file tools (Write, Edit, MultiEdit,
-- NotebookEdit): the SHA-256 of the file's content before (PreToolUse, and
-- PostToolUse from Claude Code's originalFile) and after (PostToolUse), and
-- the lines the change added and removed. Empty / NULL when unknown (not a
-- file tool, the file over the size cap, or absent).
ALTER TABLE events ADD COLUMN hash_before TEXT NOT NULL DEFAULT '';
ALTER TABLE events ADD COLUMN hash_after TEXT NOT NULL DEFAULT '';
ALTER TABLE events ADD COLUMN lines_added INTEGER;
ALTER TABLE events ADD COLUMN lines_removed INTEGER;
