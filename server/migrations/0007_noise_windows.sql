-- Noise counts per training step, so that a model can be estimated from a sliding window or
-- an exponential decay over steps. Replicas add to the bucket of the step they are in with
-- upserts, as they did to the single tally before; the counts kept so far become step 0.
CREATE TABLE noise_counts (
    verifier TEXT NOT NULL,
    verifier_version TEXT NOT NULL,
    label TEXT NOT NULL,
    kind TEXT NOT NULL,
    step BIGINT NOT NULL,
    observed_positive BIGINT NOT NULL,
    observed_negative BIGINT NOT NULL,
    checked_positive BIGINT NOT NULL,
    overturned_positive BIGINT NOT NULL,
    checked_negative BIGINT NOT NULL,
    overturned_negative BIGINT NOT NULL,
    updated_at_ms BIGINT NOT NULL,
    PRIMARY KEY (verifier, verifier_version, label, kind, step)
);

INSERT INTO noise_counts (verifier, verifier_version, label, kind, step, observed_positive, observed_negative,
                          checked_positive, overturned_positive, checked_negative, overturned_negative,
                          updated_at_ms)
SELECT verifier, verifier_version, label, kind, 0, observed_positive, observed_negative, checked_positive,
       overturned_positive, checked_negative, overturned_negative, updated_at_ms
FROM noise_tallies;

DROP TABLE noise_tallies;

-- The current training step of each noise model, set by the trainer; it only moves forward.
CREATE TABLE noise_steps (
    verifier TEXT NOT NULL,
    verifier_version TEXT NOT NULL,
    label TEXT NOT NULL,
    step BIGINT NOT NULL,
    updated_at_ms BIGINT NOT NULL,
    PRIMARY KEY (verifier, verifier_version, label)
);
