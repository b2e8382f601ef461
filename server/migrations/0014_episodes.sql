-- Multi-turn environment episodes and their transcripts.
--
-- An episode's state lives in the memory of the replica that started it (`replica`); its row and
-- steps are written as it goes, so any replica can read a transcript back. Turn 0 is the first
-- observation (no action). `status` is `live` until the episode ends: `done` (the environment
-- ended it), `closed` (the client), `expired` (idle too long), `turn_limit` (the server's cap).

CREATE TABLE episodes (
    id TEXT PRIMARY KEY,
    environment TEXT NOT NULL,
    replica TEXT NOT NULL,
    options TEXT NOT NULL,
    status TEXT NOT NULL,
    turns BIGINT NOT NULL,
    total_reward DOUBLE PRECISION NOT NULL,
    created_at_ms BIGINT NOT NULL,
    updated_at_ms BIGINT NOT NULL,
    ended_at_ms BIGINT
);

CREATE INDEX episodes_by_creation ON episodes (created_at_ms);

CREATE TABLE episode_steps (
    episode_id TEXT NOT NULL,
    turn BIGINT NOT NULL,
    action TEXT,
    observation TEXT NOT NULL,
    reward DOUBLE PRECISION NOT NULL,
    done BIGINT NOT NULL,
    elapsed_us BIGINT NOT NULL,
    at_ms BIGINT NOT NULL,
    PRIMARY KEY (episode_id, turn)
);
