/* purpose: the publication state of every release that has one (a release absent here is a draft) */
/* params: none */
/* returns: release_id, state, accepted */
/* ref: migrations/0004_publication.sql; `ldiv releases` */
SELECT
  release_id,
  CASE
    WHEN COUNT(*) FILTER(WHERE
      state = 'published') > 0
    THEN 'published'
    ELSE 'candidate'
  END AS state,
  BOOL_OR(accepted) AS accepted
FROM ldiv.publication
GROUP BY
  release_id
