/* purpose: keep the private noise log of a release (never published) */
/* params: release_id */
/* returns: inserts into ldiv.noise */
/* ref: SPEC §4.4; issue 7 (the noise added is counted and reported) */
INSERT INTO ldiv.noise (
  release_id,
  group_id,
  sa,
  replaced,
  noise,
  distance
)
SELECT
  (
    CAST(%(release_id)s AS BIGINT)
  ),
  gid,
  sa,
  replaced,
  noise,
  distance
FROM "pg_temp"."wk dec noise's"
