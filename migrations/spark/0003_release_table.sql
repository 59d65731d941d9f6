-- 0003 on Spark: the tables each release owns (ldiv_db/ownership.py). The shipped 0003 also backfills
-- the tables of releases written before it; a Spark catalog has none (the Spark engine starts with all
-- migrations), so this variant only creates the table. Checksums are those of the shipped file.
CREATE TABLE ldiv.release_table (
    schema_name    VARCHAR NOT NULL,
    table_name     VARCHAR NOT NULL,
    release_schema VARCHAR NOT NULL,
    release_name   VARCHAR NOT NULL,
    release_id     INTEGER NOT NULL,
    rows           BIGINT,
    digest         VARCHAR,
    recorded_at    TIMESTAMP NOT NULL DEFAULT current_timestamp
);
