/* purpose: verify on the written release that no group holds two rows with the same value of a source column (BSGI's individuals): the published groups are linked back to their source rows through the private ldiv.release_row, and the link is checked against the written table's group sizes */
/* params: release_id */
/* returns: groups_with_repeats, repeated_rows (rows beyond the first of their value in their group), most_in_one_group, link_mismatches (groups whose size in ldiv.release_row differs from the written table) */
/* ref: BSGI §2.4 single-individual-multi-tuple (SPEC §2.4); DESIGN §6 (a guarantee that was asked for is kept and verified) */
WITH linked AS (
  SELECT
    rr.group_id,
    src."order" AS v
  FROM ldiv.release_row AS rr
  JOIN "main"."select" AS src
    ON (
      CAST(CAST('x' || ENCODE(TIDSEND(src.ctid), 'hex') AS BIT(48)) AS BIGINT) - 1
    ) = rr.source_rowid
  WHERE
    rr.release_id = (
      CAST(%(release_id)s AS BIGINT)
    ) AND NOT rr.group_id IS NULL
), repeats AS (
  SELECT
    group_id,
    v,
    COUNT(*) AS n
  FROM linked
  GROUP BY
    group_id,
    v
  HAVING
    COUNT(*) > 1
), link_sizes AS (
  SELECT
    group_id,
    COUNT(*) AS n
  FROM linked
  GROUP BY
    group_id
), written AS (
  SELECT
    "group id" AS group_id,
    COUNT(*) AS n
  FROM "main"."out it's"
  GROUP BY
    1
)
SELECT
  (
    SELECT
      COUNT(DISTINCT group_id)
    FROM repeats
  ) AS groups_with_repeats,
  (
    SELECT
      COALESCE(SUM(n - 1), 0)
    FROM repeats
  ) AS repeated_rows,
  (
    SELECT
      COALESCE(MAX(n), 1)
    FROM repeats
  ) AS most_in_one_group,
  (
    SELECT
      COUNT(*)
    FROM link_sizes AS l
    FULL JOIN written AS w
      ON w.group_id = l.group_id
    WHERE
      l.n IS DISTINCT FROM w.n
  ) AS link_mismatches
