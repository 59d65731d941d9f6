DROP TABLE IF EXISTS "pg_temp"."wk lplus assignment's";
/* purpose: l+-Optimize assignment: every row gets its cell's partition; in a cell that loses n rows the n largest row ids are deleted; suppressed cells publish "unknown" */
/* params: none */
/* returns: creates target(rid, gid, deleted, sa_suppressed) */
/* ref: SPEC §5.3 (vioRec/allRec delete rows, vioSA/allSA replace SA values; which rows: the largest row id [D]) */
CREATE TABLE "pg_temp"."wk lplus assignment's" AS
WITH j AS (
  SELECT
    r.rid,
    c.gid,
    c.n_delete,
    c.suppress,
    ROW_NUMBER() OVER (
      PARTITION BY r."l1", r."l2", r."l3", r."l4", r.s, r.k
      ORDER BY r.rid DESC NULLS LAST
    ) AS rn
  FROM "pg_temp"."wk lplus rows's" AS r
  JOIN "pg_temp"."wk lplus cells's" AS c
    ON c."l1" = r."l1"
    AND c."l2" = r."l2"
    AND c."l3" = r."l3"
    AND c."l4" = r."l4"
    AND (
      c.s IS NULL
    ) = (
      r.s IS NULL
    )
    AND COALESCE(CAST(c.s AS TEXT), '') = COALESCE(CAST(r.s AS TEXT), '')
    AND (
      c.k IS NULL
    ) = (
      r.k IS NULL
    )
    AND COALESCE(CAST(c.k AS TEXT), '') = COALESCE(CAST(r.k AS TEXT), '')
)
SELECT
  rid,
  gid,
  rn <= n_delete AS deleted,
  suppress AND rn > n_delete AS sa_suppressed
FROM j;
ANALYZE "pg_temp"."wk lplus assignment's"
