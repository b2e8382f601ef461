-- Jobs, second part.
-- * An upload is stored in small transactions: the job row stays `uploading` (ignored by
--   workers and readers) until its last rows commit; `upload_owner`/`upload_node` name the
--   process storing it and `upload_expires_ms` is renewed with every transaction, so an upload
--   whose process died is removed.
-- * Fair claiming: a job's `vtime` grows by 1,000,000 / `priority` per claimed chunk, and workers
--   claim from the job with the smallest, so jobs share workers in proportion to priority.
-- * `lease_node` names the node of a chunk's lease holder, so a restarted node can take back its
--   dead predecessor's chunks at once instead of waiting out the lease.
-- * `job_items.error`: an item refused at upload (a raw NUL byte, which PostgreSQL text cannot
--   hold), scored as that item's `invalid_input`.

ALTER TABLE jobs ADD COLUMN priority BIGINT NOT NULL DEFAULT 1;
ALTER TABLE jobs ADD COLUMN vtime BIGINT NOT NULL DEFAULT 0;
ALTER TABLE jobs ADD COLUMN upload_node TEXT;
ALTER TABLE jobs ADD COLUMN upload_owner TEXT;
ALTER TABLE jobs ADD COLUMN upload_expires_ms BIGINT;
ALTER TABLE job_chunks ADD COLUMN lease_node TEXT;
ALTER TABLE job_items ADD COLUMN error TEXT;

CREATE INDEX jobs_by_state ON jobs (state);
CREATE INDEX job_chunks_by_node ON job_chunks (lease_node, state);
