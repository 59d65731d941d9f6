/* purpose: the inference-channel check of a continuous release, before anything is written: rows of any earlier release of the stream that would change (or lose) their group, rows published twice, value copies an earlier group's SA-table would lose, and earlier groups that would gain rows (the difference of two releases would show a new member's QIs and SA values) */
/* params: name, first_release, previous_id */
/* returns: moved, republished, sa_changed, grown */
/* ref: SPEC §4.3 (a published group never changes membership; a row stays in its group); Byun et al. */
WITH earlier AS (
  SELECT DISTINCT
    source_rowid AS rk,
    group_id AS gid
  FROM ldiv.release_row
  WHERE
    release_id IN (
      SELECT
        release_id
      FROM ldiv.release
      WHERE
        name = (
          CAST(%(name)s AS TEXT)
        )
        AND release_id >= (
          CAST(%(first_release)s AS BIGINT)
        )
    )
), now AS (
  SELECT
    source_rowid AS rk,
    group_id AS gid
  FROM ldiv.release_row
  WHERE
    release_id = (
      CAST(%(previous_id)s AS BIGINT)
    )
  UNION ALL
  SELECT
    rk,
    gid
  FROM "pg_temp"."wk dec assignment's"
), lost AS (
  SELECT
    COUNT(*) AS n
  FROM (
    SELECT
      g,
      v
    FROM (
      SELECT
        "group id" AS g,
        CAST("ünï" AS TEXT) AS v,
        1 AS d
      FROM "main"."rel it's_sa"
      WHERE
        "group id" IN (
          SELECT
            gid
          FROM "pg_temp"."wk dec sa rows's"
        )
      UNION ALL
      SELECT
        gid,
        "s1",
        -1
      FROM "pg_temp"."wk dec sa rows's"
    ) AS ldiv_sq7
    GROUP BY
      g,
      v
    HAVING
      SUM(d) > 0
    UNION ALL
    SELECT
      g,
      v
    FROM (
      SELECT
        "group id" AS g,
        CAST("order" AS TEXT) AS v,
        1 AS d
      FROM "main"."rel it's_sa"
      WHERE
        "group id" IN (
          SELECT
            gid
          FROM "pg_temp"."wk dec sa rows's"
        )
      UNION ALL
      SELECT
        gid,
        "s2",
        -1
      FROM "pg_temp"."wk dec sa rows's"
    ) AS ldiv_sq8
    GROUP BY
      g,
      v
    HAVING
      SUM(d) > 0
  ) AS ldiv_sq3
)
SELECT
  (
    SELECT
      COUNT(*)
    FROM earlier AS e
    WHERE
      NOT EXISTS(
        SELECT
          1
        FROM now AS n
        WHERE
          n.rk = e.rk AND n.gid = e.gid
      )
  ) AS moved,
  (
    SELECT
      COUNT(*)
    FROM "pg_temp"."wk dec assignment's"
    WHERE
      rk IN (
        SELECT
          rk
        FROM earlier
      )
  ) AS republished,
  lost.n AS sa_changed,
  (
    SELECT
      COUNT(DISTINCT gid)
    FROM "pg_temp"."wk dec assignment's"
    WHERE
      gid IN (
        SELECT
          gid
        FROM earlier
      )
  ) AS grown
FROM lost
