-- purpose: create or update the state of a release stream (PostgreSQL: an upsert on the key)
-- params: name, source, config, releases, first_release, next_key, retained
-- returns: inserts or replaces one row of ldiv.stream
-- ref: SPEC §4.3 (continuous release); the DuckDB template stream_save.sql
INSERT INTO ldiv.stream AS s (name, source, config, releases, first_release, next_key, retained)
VALUES ($name, $source, CAST($config AS JSON), $releases, $first_release, $next_key, $retained)
ON CONFLICT (name) DO UPDATE SET
    source = excluded.source, config = excluded.config, releases = excluded.releases,
    first_release = excluded.first_release, next_key = excluded.next_key, retained = excluded.retained
