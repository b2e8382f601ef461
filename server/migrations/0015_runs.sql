-- Training runs: every item scored with a `run` (its step, prompt and group), and per prompt and
-- step the counts pass rates are read from. Replicas add to the same counts (the upsert sums),
-- so a pass rate is the run's, whichever replica scored the items.

CREATE TABLE runs (
    run TEXT PRIMARY KEY,
    items BIGINT NOT NULL,
    first_step BIGINT NOT NULL,
    last_step BIGINT NOT NULL,
    created_at_ms BIGINT NOT NULL,
    updated_at_ms BIGINT NOT NULL
);

CREATE INDEX runs_by_update ON runs (updated_at_ms);

CREATE TABLE run_items (
    run TEXT NOT NULL,
    step BIGINT NOT NULL,
    prompt_id TEXT,
    group_id TEXT,
    verifier TEXT NOT NULL,
    score DOUBLE PRECISION NOT NULL,
    status TEXT NOT NULL,
    latency_us BIGINT NOT NULL,
    created_at_ms BIGINT NOT NULL
);

CREATE INDEX run_items_by_step ON run_items (run, step);
CREATE INDEX run_items_by_time ON run_items (created_at_ms);

CREATE TABLE run_prompt_steps (
    run TEXT NOT NULL,
    prompt_id TEXT NOT NULL,
    step BIGINT NOT NULL,
    attempts BIGINT NOT NULL,
    successes BIGINT NOT NULL,
    score_sum DOUBLE PRECISION NOT NULL,
    updated_at_ms BIGINT NOT NULL,
    PRIMARY KEY (run, prompt_id, step)
);

CREATE INDEX run_prompt_steps_by_time ON run_prompt_steps (updated_at_ms);
