-- Batch scoring jobs. A job's items are split into chunks; workers on any replica claim a
-- chunk under a lease, score it, and write its results keyed by (job, item index), so a chunk
-- done twice never duplicates a result.

CREATE TABLE jobs (
    id TEXT PRIMARY KEY,
    state TEXT NOT NULL,
    total_items BIGINT NOT NULL,
    chunk_size BIGINT NOT NULL,
    chunks_total BIGINT NOT NULL,
    created_at_ms BIGINT NOT NULL,
    finished_at_ms BIGINT
);

CREATE TABLE job_items (
    job_id TEXT NOT NULL,
    item_index BIGINT NOT NULL,
    payload TEXT NOT NULL,
    PRIMARY KEY (job_id, item_index)
);

CREATE TABLE job_chunks (
    job_id TEXT NOT NULL,
    chunk_index BIGINT NOT NULL,
    first_item BIGINT NOT NULL,
    item_count BIGINT NOT NULL,
    state TEXT NOT NULL DEFAULT 'pending',
    lease_owner TEXT,
    lease_expires_ms BIGINT,
    attempts BIGINT NOT NULL DEFAULT 0,
    PRIMARY KEY (job_id, chunk_index)
);

CREATE INDEX job_chunks_by_state ON job_chunks (state, lease_expires_ms);

CREATE TABLE job_results (
    job_id TEXT NOT NULL,
    item_index BIGINT NOT NULL,
    result TEXT NOT NULL,
    PRIMARY KEY (job_id, item_index)
);
