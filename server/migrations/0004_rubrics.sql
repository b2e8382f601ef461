-- Rubrics and the LLM judge's reply cache.
--
-- Every version of a rubric is kept: an update adds a row with the next version. Deleting a
-- rubric marks all its versions deleted; creating the id again continues the numbering, so a
-- (id, version) pair always names the same definition.

CREATE TABLE rubrics (
    id TEXT NOT NULL,
    version BIGINT NOT NULL,
    definition TEXT NOT NULL,
    created_at_ms BIGINT NOT NULL,
    deleted_at_ms BIGINT,
    PRIMARY KEY (id, version)
);

-- Replies of the judge that parsed, keyed by the model and the SHA-256 of the request body.
CREATE TABLE judge_cache (
    model TEXT NOT NULL,
    prompt_hash TEXT NOT NULL,
    reply TEXT NOT NULL,
    created_at_ms BIGINT NOT NULL,
    PRIMARY KEY (model, prompt_hash)
);
