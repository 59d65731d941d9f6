/* purpose: the recorded releases a composition check reads: what each was made from and what it promises */
/* params: ids */
/* returns: release_id, name, source, algorithm, model, l, qi, sa, superseded_by (one row per recorded id) */
/* ref: DESIGN §6 (ldiv.release); docs/decisions/0005-composition-check.md */
SELECT
  release_id,
  name,
  source,
  algorithm,
  model,
  l,
  CAST(qi AS TEXT) AS qi,
  CAST(sa AS TEXT) AS sa,
  superseded_by
FROM ldiv.release
WHERE
  release_id = ANY(
    $ids
  )
ORDER BY
  release_id
