/* purpose: the own unit masks (compose/unit_masks.sql) of every release holding the rows of a combination (compose/combos.sql) that some pair of releases can leave below its l, the releases stacked: what compose/pair_counts.sql reads */
/* params: most */
/* returns: creates target(cmb, r, word, mask): r the release's position; only combinations whose rows all the releases leave fewer than most values (the largest l of a pair counted), for a pair leaves every row at least the values all of them leave it */
/* ref: docs/decisions/0005-composition-check.md ("Pairs in a fixed number of statements"); driving holds one row per combination with its presence and units (compose/driving.sql); a release that does not hold the rows, or covers them by shared classes only (unit 0), has no row here; umasks (shape): each release's unit masks, in the releases' order */
CREATE OR REPLACE TEMPORARY TABLE "temp"."main"."wk compose own's" AS
WITH c AS (
  SELECT
    t.*
  FROM "temp"."main"."wk compose driving's" AS t
  WHERE
    t.cmb IN (
      SELECT
        cmb
      FROM "temp"."main"."wk compose left's"
      WHERE
        left_all < $most
    )
)
SELECT
  c.cmb,
  1 AS r,
  y.word,
  y.mask
FROM c
JOIN "temp"."main"."wk compose unit masks's" AS y
  ON y.uid = c."u1"
WHERE
  SUBSTRING(c.present, 1, 1) = '1' AND c."u1" <> 0
UNION ALL
SELECT
  c.cmb,
  2 AS r,
  y.word,
  y.mask
FROM c
JOIN "temp"."main"."wk compose unit masks's" AS y
  ON y.uid = c."u2"
WHERE
  SUBSTRING(c.present, 2, 1) = '1' AND c."u2" <> 0
