-- The noisy-reward layer. A noise model is keyed by (verifier, version, label), where the
-- label is a task or data-source name and '' stands for the verifier as a whole.

-- What a person set: hand-configured rates, the appeal checker and rates, the source in use.
CREATE TABLE noise_settings (
    verifier TEXT NOT NULL,
    verifier_version TEXT NOT NULL,
    label TEXT NOT NULL,
    settings TEXT NOT NULL,
    updated_at_ms BIGINT NOT NULL,
    PRIMARY KEY (verifier, verifier_version, label)
);

-- Counts behind the estimates: 'audit' tallies gold-labelled verdicts, 'appeal' tallies the
-- verdicts seen and those re-checked. Replicas add their counts with upserts, never overwrite.
CREATE TABLE noise_tallies (
    verifier TEXT NOT NULL,
    verifier_version TEXT NOT NULL,
    label TEXT NOT NULL,
    kind TEXT NOT NULL,
    observed_positive BIGINT NOT NULL,
    observed_negative BIGINT NOT NULL,
    checked_positive BIGINT NOT NULL,
    overturned_positive BIGINT NOT NULL,
    checked_negative BIGINT NOT NULL,
    overturned_negative BIGINT NOT NULL,
    updated_at_ms BIGINT NOT NULL,
    PRIMARY KEY (verifier, verifier_version, label, kind)
);

-- Verdicts the appeal checker overturned, with both verdicts, for people to inspect.
CREATE TABLE noise_overturns (
    verifier TEXT NOT NULL,
    verifier_version TEXT NOT NULL,
    label TEXT NOT NULL,
    item_id TEXT,
    verdict_status TEXT NOT NULL,
    verdict_score DOUBLE PRECISION NOT NULL,
    checker TEXT NOT NULL,
    checker_status TEXT NOT NULL,
    checker_score DOUBLE PRECISION NOT NULL,
    checker_details TEXT NOT NULL,
    input TEXT NOT NULL,
    created_at_ms BIGINT NOT NULL
);

CREATE INDEX noise_overturns_by_key ON noise_overturns (verifier, verifier_version, label, created_at_ms);
