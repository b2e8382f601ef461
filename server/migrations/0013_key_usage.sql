-- The items charged to each API key's daily quota (`max_items_per_day`), per UTC day number
-- (seconds since the epoch / 86400), shared by every replica on this database. Rows of past
-- days are kept a week by the retention sweep.

CREATE TABLE key_usage (
    key_name TEXT NOT NULL,
    day BIGINT NOT NULL,
    items BIGINT NOT NULL,
    PRIMARY KEY (key_name, day)
);
