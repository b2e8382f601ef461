-- Scoring-log rows of input that may be scored again (a job chunk taken over after its worker
-- died) carry a key; the writer inserts with ON CONFLICT DO NOTHING, so the second scoring adds
-- no row. Rows of HTTP requests have no key (NULLs never conflict).
ALTER TABLE scoring_log ADD COLUMN row_key TEXT;
CREATE UNIQUE INDEX scoring_log_by_row_key ON scoring_log (row_key);
