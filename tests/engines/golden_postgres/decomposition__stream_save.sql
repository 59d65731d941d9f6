/* purpose: create or update the state of a release stream (PostgreSQL: an upsert on the key) */
/* params: name, source, config, releases, first_release, next_key, retained */
/* returns: inserts or replaces one row of ldiv.stream */
/* ref: SPEC §4.3 (continuous release); the DuckDB template stream_save.sql */
INSERT INTO ldiv.stream AS s (
  name,
  source,
  config,
  releases,
  first_release,
  next_key,
  retained
)
VALUES
  (
    (
      CAST(%(name)s AS TEXT)
    ),
    (
      CAST(%(source)s AS TEXT)
    ),
    CAST((
      CAST(%(config)s AS TEXT)
    ) AS JSON),
    (
      CAST(%(releases)s AS BIGINT)
    ),
    (
      CAST(%(first_release)s AS BIGINT)
    ),
    (
      CAST(%(next_key)s AS BIGINT)
    ),
    (
      CAST(%(retained)s AS TEXT)
    )
  ) ON CONFLICT(name) DO UPDATE SET source = excluded.source, config = excluded.config, releases = excluded.releases, first_release = excluded.first_release, next_key = excluded.next_key, retained = excluded.retained
