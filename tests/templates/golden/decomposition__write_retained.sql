/* purpose: the private table of the rows kept back for a later release, with their starvation penalty at this release */
/* params: release */
/* returns: creates target(rk, arrived, starvation, c1..cn) */
/* ref: SPEC §4.3 (P_s = release - first eligible release) */
/*      all_placed: the release assigned every pool row, so none is kept back (no anti-join of the pool); */
/*      the reconciliation counts assigned + kept back against the pool's rows, so a wrong flag is caught */
CREATE TABLE "ldiv"."retained:main.out it's" AS
SELECT
  p.rk,
  p.arrived,
  CAST($release AS INT) - p.arrived AS starvation,
  p."c1",
  p."c2",
  p."c3",
  p."c4",
  p."c5",
  p."c6",
  p."c7"
FROM "temp"."main"."wk dec pool's" AS p
WHERE
  NOT p.rk IN (
    SELECT
      rk
    FROM "temp"."main"."wk dec assignment's"
  )
ORDER BY
  p.rk
