-- RLPR's no-reasoning baselines per training run: the log-probs of the reference-answer tokens
-- of a baseline text (the rendered prompt, the reference and the end-of-sequence text), scored
-- the first time the run scored that prompt and reference and kept for the rest of the run, as
-- RLPR computes them once with the initial policy. Keyed by the text's SHA-256 (hex).
CREATE TABLE rlpr_baselines (
    run TEXT NOT NULL,
    text_hash TEXT NOT NULL,
    logprobs TEXT NOT NULL,
    created_at_ms BIGINT NOT NULL,
    PRIMARY KEY (run, text_hash)
);
