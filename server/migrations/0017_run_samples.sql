-- Text retention (`[runs.samples]`, off by default): the response, extracted answer and details
-- of a random sample of a run's items, a row each with the item's tags and verdict, so a verdict
-- can be audited later. Texts are capped when written; `truncated` (0 or 1) says one was cut.
-- Deleted with the run's statistics (`[retention.runs]`), and beyond `max_samples`.

CREATE TABLE run_samples (
    id TEXT PRIMARY KEY,
    run TEXT NOT NULL,
    step BIGINT NOT NULL,
    prompt_id TEXT,
    group_id TEXT,
    item_id TEXT,
    verifier TEXT NOT NULL,
    status TEXT NOT NULL,
    score DOUBLE PRECISION NOT NULL,
    latency_us BIGINT NOT NULL,
    response TEXT,
    response_bytes BIGINT,
    extracted TEXT,
    details TEXT NOT NULL,
    truncated BIGINT NOT NULL,
    created_at_ms BIGINT NOT NULL
);

CREATE INDEX run_samples_by_step ON run_samples (run, step);
CREATE INDEX run_samples_by_time ON run_samples (created_at_ms);
