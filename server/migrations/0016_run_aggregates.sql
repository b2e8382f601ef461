-- Training runs as aggregates instead of a row per item: each write adds to rows keyed by what
-- the statistics group by, so a write costs rows per distinct key (a few per step for discrete
-- rewards), not per item, and replicas add to the same rows.
--   run_scores:    per run, step and verifier, the items by distinct (score, status), with their
--                  summed latency and how many had no prompt id;
--   run_latencies: per run, step and verifier, a latency histogram (8 buckets per doubling);
--   run_groups:    per run, step and group (the group, or the prompt id without one), the
--                  attempts, successes and summed score, for pass@k and mean@k;
--   run_prompts:   per run, prompt, step and verifier, the items and their summed score, the
--                  attempts, successes and the attempts' summed score, for pass rates.
-- The items and per-prompt counts of 0015 are carried over, then its two tables dropped.

CREATE TABLE run_scores (
    run TEXT NOT NULL,
    step BIGINT NOT NULL,
    verifier TEXT NOT NULL,
    score DOUBLE PRECISION NOT NULL,
    status TEXT NOT NULL,
    items BIGINT NOT NULL,
    latency_us_sum BIGINT NOT NULL,
    unprompted BIGINT NOT NULL,
    updated_at_ms BIGINT NOT NULL,
    PRIMARY KEY (run, step, verifier, score, status)
);

CREATE INDEX run_scores_by_time ON run_scores (updated_at_ms);

CREATE TABLE run_latencies (
    run TEXT NOT NULL,
    step BIGINT NOT NULL,
    verifier TEXT NOT NULL,
    bucket BIGINT NOT NULL,
    items BIGINT NOT NULL,
    updated_at_ms BIGINT NOT NULL,
    PRIMARY KEY (run, step, verifier, bucket)
);

CREATE INDEX run_latencies_by_time ON run_latencies (updated_at_ms);

CREATE TABLE run_groups (
    run TEXT NOT NULL,
    step BIGINT NOT NULL,
    group_id TEXT NOT NULL,
    attempts BIGINT NOT NULL,
    successes BIGINT NOT NULL,
    score_sum DOUBLE PRECISION NOT NULL,
    updated_at_ms BIGINT NOT NULL,
    PRIMARY KEY (run, step, group_id)
);

CREATE INDEX run_groups_by_time ON run_groups (updated_at_ms);

CREATE TABLE run_prompts (
    run TEXT NOT NULL,
    prompt_id TEXT NOT NULL,
    step BIGINT NOT NULL,
    verifier TEXT NOT NULL,
    items BIGINT NOT NULL,
    score_sum DOUBLE PRECISION NOT NULL,
    attempts BIGINT NOT NULL,
    successes BIGINT NOT NULL,
    attempt_score_sum DOUBLE PRECISION NOT NULL,
    updated_at_ms BIGINT NOT NULL,
    PRIMARY KEY (run, prompt_id, step, verifier)
);

CREATE INDEX run_prompts_by_time ON run_prompts (updated_at_ms);

INSERT INTO run_scores (run, step, verifier, score, status, items, latency_us_sum, unprompted, updated_at_ms)
SELECT run, step, verifier, score, status, COUNT(*), SUM(latency_us),
       SUM(CASE WHEN prompt_id IS NULL THEN 1 ELSE 0 END), MAX(created_at_ms)
FROM run_items
GROUP BY run, step, verifier, score, status;

-- Neither database has a portable logarithm: a recorded latency goes to the middle bucket of
-- its doubling (bucket 8k + 4 for 2^k <= latency < 2^(k+1) microseconds), so its quantiles
-- are within a factor of about 1.5 of the recorded ones; the mean stays exact (latency_us_sum).
WITH RECURSIVE octaves (k, low) AS (
    SELECT 0, CAST(1 AS BIGINT)
    UNION ALL
    SELECT k + 1, low * 2 FROM octaves WHERE k < 40
)
INSERT INTO run_latencies (run, step, verifier, bucket, items, updated_at_ms)
SELECT i.run, i.step, i.verifier, 8 * o.k + 4, COUNT(*), MAX(i.created_at_ms)
FROM run_items i
JOIN octaves o
  ON (CASE WHEN i.latency_us < 1 THEN 1 ELSE i.latency_us END) >= o.low
 AND ((CASE WHEN i.latency_us < 1 THEN 1 ELSE i.latency_us END) < o.low * 2 OR o.k = 40)
GROUP BY i.run, i.step, i.verifier, o.k;

INSERT INTO run_groups (run, step, group_id, attempts, successes, score_sum, updated_at_ms)
SELECT run, step, COALESCE(group_id, prompt_id), COUNT(*),
       SUM(CASE WHEN status = 'correct' THEN 1 ELSE 0 END), SUM(score), MAX(created_at_ms)
FROM run_items
WHERE COALESCE(group_id, prompt_id) IS NOT NULL AND status NOT IN ('invalid_input', 'internal_error')
GROUP BY run, step, COALESCE(group_id, prompt_id);

INSERT INTO run_prompts (run, prompt_id, step, verifier, items, score_sum, attempts, successes, attempt_score_sum,
                         updated_at_ms)
SELECT run, prompt_id, step, verifier, COUNT(*), SUM(score),
       SUM(CASE WHEN status NOT IN ('invalid_input', 'internal_error') THEN 1 ELSE 0 END),
       SUM(CASE WHEN status = 'correct' THEN 1 ELSE 0 END),
       SUM(CASE WHEN status NOT IN ('invalid_input', 'internal_error') THEN score ELSE 0 END),
       MAX(created_at_ms)
FROM run_items
WHERE prompt_id IS NOT NULL
GROUP BY run, prompt_id, step, verifier;

DROP TABLE run_items;
DROP TABLE run_prompt_steps;
