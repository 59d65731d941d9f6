/* purpose: the id the next release record will get (engines without transactions reserve it to link the rows first), and the largest release id with private row links (from the reserved id on: links of a release that was not recorded) */
/* params: none */
/* returns: release_id, linked (0: no links) */
/* ref: ldiv_db/pipeline/publish.py (_staged) */
SELECT
  COALESCE(MAX(release_id), 0) + 1 AS release_id,
  (
    SELECT
      COALESCE(MAX(l.release_id), 0)
    FROM ldiv.release_row AS l
  ) AS linked
FROM ldiv.release
