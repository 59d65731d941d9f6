/* purpose: create or update the state of a release stream */
/* params: name, source, config, releases, first_release, next_key, retained */
/* returns: inserts or replaces one row of ldiv.stream */
/* ref: SPEC §4.3 (continuous release) */
INSERT OR REPLACE INTO ldiv.stream (
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
    $name,
    $source,
    CAST($config AS JSON),
    $releases,
    $first_release,
    $next_key,
    $retained
  )
