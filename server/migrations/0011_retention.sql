-- Retention: the background task deletes rows by age (and keeps the newest N), so each table it
-- trims needs its time column indexed on its own; the existing indexes lead with other columns.
-- Job children (items, chunks, results) are found by their primary keys, which lead with job_id,
-- and noise step buckets by theirs, which lead with the model's key.
--
-- Plain CREATE INDEX runs inside the migration's transaction on both backends; on a large
-- PostgreSQL scoring log it holds writes back while it builds (see docs/operations.md).
CREATE INDEX scoring_log_by_time ON scoring_log (created_at_ms);
CREATE INDEX result_cache_by_time ON result_cache (created_at_ms);
CREATE INDEX jobs_by_finish ON jobs (finished_at_ms);
CREATE INDEX noise_overturns_by_time ON noise_overturns (created_at_ms);
CREATE INDEX judge_cache_by_time ON judge_cache (created_at_ms);
