-- 0002: Decomposition+ continuous release — the release streams, their rows and the noise log.
-- Append-only: never edit an applied migration.

-- One stream per release name (the OUT of OUT_qid / OUT_sa / OUT_marginals).
CREATE TABLE ldiv.stream (
    name          VARCHAR PRIMARY KEY,  -- the release name as displayed (schema.name)
    source        VARCHAR NOT NULL,     -- table of the first release; its hierarchies serve every release
    config        JSON NOT NULL,        -- columns, primary SA, l per SA, noise, seed, starvation threshold
    releases      INTEGER NOT NULL,     -- releases published so far (release r has starvation base r)
    first_release INTEGER NOT NULL,     -- ldiv.release id of the stream's first release
    next_key      BIGINT NOT NULL,      -- row key of the next row to arrive
    retained      VARCHAR NOT NULL,     -- the private table (schema ldiv) of the rows kept back
    created_at    TIMESTAMP NOT NULL DEFAULT current_timestamp
);

-- Every row a stream received: where it came from and the first release it was eligible for.
-- ldiv.release_row.source_rowid of a stream's release is this row_key.
CREATE TABLE ldiv.stream_row (
    name          VARCHAR NOT NULL,
    row_key       BIGINT NOT NULL,
    source        VARCHAR NOT NULL,
    source_rowid  BIGINT NOT NULL,
    arrived       INTEGER NOT NULL      -- release number the row was first eligible for
);

-- The private noise log: which copy of which value was replaced in which group (never published).
CREATE TABLE ldiv.noise (
    release_id    INTEGER NOT NULL,
    group_id      BIGINT NOT NULL,
    sa            VARCHAR NOT NULL,
    replaced      VARCHAR,
    noise         VARCHAR,
    distance      DOUBLE
);
