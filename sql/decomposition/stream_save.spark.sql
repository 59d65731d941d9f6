-- purpose: create or update the state of a release stream (Spark: the table rewritten without the name's row, plus the new row; the engine builds it in a scratch table first, as it does an UPDATE)
-- params: name, source, config, releases, first_release, next_key, retained
-- returns: inserts or replaces one row of ldiv.stream
-- ref: SPEC §4.3 (continuous release); the DuckDB template stream_save.sql
INSERT OVERWRITE TABLE ldiv.stream
SELECT s.name, s.source, s.config, s.releases, s.first_release, s.next_key, s.retained, s.created_at
FROM ldiv.stream AS s
WHERE s.name <> $name
UNION ALL
SELECT $name, $source, CAST($config AS JSON), $releases, $first_release, $next_key, $retained, current_timestamp
