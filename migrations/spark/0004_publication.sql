-- 0004 on Spark: publication (see the shipped file). A Spark catalog starts with all migrations, so it
-- has no release written before this one: this variant only creates the table. Checksums are those of
-- the shipped file.
CREATE TABLE ldiv.publication (
    release_id   INTEGER NOT NULL,
    state        VARCHAR NOT NULL,
    accepted     BOOLEAN NOT NULL,
    composition  JSON,
    note         VARCHAR,
    decided_at   TIMESTAMP NOT NULL DEFAULT current_timestamp
);
