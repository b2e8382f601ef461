-- RLPR std-filter state per named training run: the settings fixed at the first step, the
-- state after the last decided step, and that step's answer (so a retried step is answered
-- again without moving the moving average twice).
CREATE TABLE rlpr_runs (
    run TEXT PRIMARY KEY,
    settings TEXT NOT NULL,
    state TEXT NOT NULL,
    step BIGINT NOT NULL,
    last_answer TEXT,
    updated_at_ms BIGINT NOT NULL
);
