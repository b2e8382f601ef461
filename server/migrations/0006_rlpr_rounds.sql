-- RLPR std filter, several generation rounds per step: the hash of the request that got the
-- stored answer (a retry must repeat it; another body for the same step and round is refused),
-- and a version bumped by every write, the compare-and-set token now that rounds of one step
-- leave the closed-step count unchanged.
ALTER TABLE rlpr_runs ADD COLUMN last_request_hash TEXT;
ALTER TABLE rlpr_runs ADD COLUMN version BIGINT NOT NULL DEFAULT 0;
