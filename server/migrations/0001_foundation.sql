-- One schema for SQLite and PostgreSQL: portable types only, times as Unix milliseconds.

CREATE TABLE scoring_log (
    request_id TEXT NOT NULL,
    item_index BIGINT NOT NULL,
    item_hash TEXT NOT NULL,
    verifier TEXT NOT NULL,
    verifier_version TEXT NOT NULL,
    score DOUBLE PRECISION NOT NULL,
    status TEXT NOT NULL,
    latency_us BIGINT NOT NULL,
    created_at_ms BIGINT NOT NULL
);

CREATE INDEX scoring_log_by_verifier ON scoring_log (verifier, created_at_ms);
CREATE INDEX scoring_log_by_request ON scoring_log (request_id);

CREATE TABLE result_cache (
    verifier TEXT NOT NULL,
    verifier_version TEXT NOT NULL,
    input_hash TEXT NOT NULL,
    score DOUBLE PRECISION NOT NULL,
    status TEXT NOT NULL,
    details TEXT NOT NULL,
    created_at_ms BIGINT NOT NULL,
    PRIMARY KEY (verifier, verifier_version, input_hash)
);
