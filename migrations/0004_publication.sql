-- 0004: publication. A release is a draft until the user publishes it (`ldiv release publish`); this log
-- holds every step of a release towards publication (ldiv_db/pipeline/publication.py). A release with no
-- row here is a draft; 'candidate' marks a draft written by `ldiv compare`; 'published' is final: the
-- release's table is what left the database, so it is never replaced, and every later publication of
-- the same source is checked against it (the composition check, ldiv_db/pipeline/compose.py).
-- Append-only: never edit an applied migration.
CREATE TABLE ldiv.publication (
    release_id   INTEGER NOT NULL,
    state        VARCHAR NOT NULL,      -- 'candidate' | 'published'
    accepted     BOOLEAN NOT NULL,      -- published although it composes below l with the published releases
    composition  JSON,                  -- the composition check at publication (NULL: none was run)
    note         VARCHAR,
    decided_at   TIMESTAMP NOT NULL DEFAULT current_timestamp
);

-- The releases written before this migration may already have left the database: they count as
-- published, so that a new publication of their source is checked against them (the safe side).
INSERT INTO ldiv.publication (release_id, state, accepted, composition, note)
SELECT release_id, 'published', false, NULL, 'written before publication was recorded (migration 0004)'
FROM ldiv.release
WHERE superseded_by IS NULL;
