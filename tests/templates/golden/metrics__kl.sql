/* purpose: KL-divergence between the source distribution F and the release's uniform-spread estimate F*, joint over the QIs and the SA(s); the (source point, release pattern) containment join runs as a trie join, one attribute per materialized stage */
/* params: none */
/* returns: kl (sum over covered points of F ln(F/F*)), points (distinct source points), uncovered (points with F* = 0: KL is infinite) */
/* ref: SPEC §0.7 (KL, TP §6.2, (l,alpha) §3.1); region = product of label covers x {SA}; a NULL ("unknown") SA covers every SA value of the source */
WITH pts AS MATERIALIZED (
  SELECT
    CAST(x1 AS TEXT) AS x1,
    CAST(x2 AS TEXT) AS x2,
    CAST(x3 AS TEXT) AS x3,
    CAST(x4 AS TEXT) AS x4,
    CAST(s1 AS TEXT) AS s1,
    1 AS o,
    n
  FROM (
    SELECT
      "it's" AS x1,
      "a""b" AS x2,
      "Zip Code" AS x3,
      "select" AS x4,
      "ünï" AS s1,
      COUNT(*) AS n
    FROM "main"."select"
    GROUP BY ALL
  ) AS grouped
), pat AS MATERIALIZED (
  SELECT
    CAST("it's" AS TEXT) AS l1,
    CAST("a""b" AS TEXT) AS l2,
    CAST("Zip Code" AS TEXT) AS l3,
    CAST("select" AS TEXT) AS l4,
    CAST("ünï" AS TEXT) AS t1,
    1 AS o,
    COUNT(*) AS c
  FROM "main"."rel'ease ""x"""
  GROUP BY ALL
), total AS (
  SELECT
    CAST(SUM(n) AS DOUBLE) AS n_source
  FROM pts
), ncov AS (
  SELECT
    attr,
    label,
    COUNT(*) AS n_cover
  FROM "temp"."main"."wk metrics cover's"
  GROUP BY
    attr,
    label
), sa_dom1 AS (
  SELECT DISTINCT
    s1 AS v
  FROM pts
), sa_cover1 AS (
  SELECT
    v AS label,
    v AS value
  FROM sa_dom1
  UNION ALL
  SELECT
    CAST(NULL AS TEXT) AS label,
    v AS value
  FROM sa_dom1
  WHERE
    EXISTS(
      SELECT
        1
      FROM pat
      WHERE
        pat.t1 IS NULL
    )
), mass AS (
  SELECT
    pat.*,
    pat.c / (
      SELECT
        CAST(SUM(c) AS DOUBLE)
      FROM pat
    ) / (
      CAST(1 AS DOUBLE) * k1.n_cover * k2.n_cover * k3.n_cover * k4.n_cover * CASE WHEN pat.t1 IS NULL THEN (
        SELECT
          COUNT(*)
        FROM sa_dom1
      ) ELSE 1 END
    ) AS m
  FROM pat
  JOIN ncov AS k1
    ON k1.attr = 1 AND k1.label = pat.l1
  JOIN ncov AS k2
    ON k2.attr = 2 AND k2.label = pat.l2
  JOIN ncov AS k3
    ON k3.attr = 3 AND k3.label = pat.l3
  JOIN ncov AS k4
    ON k4.attr = 4 AND k4.label = pat.l4
), st0 AS MATERIALIZED (
  SELECT
    v.o,
    v.s1,
    sc1.label AS t1
  FROM (
    SELECT DISTINCT
      o,
      s1
    FROM pts
  ) AS v
  JOIN sa_cover1 AS sc1
    ON sc1.value = v.s1
  JOIN (
    SELECT DISTINCT
      o,
      t1
    FROM pat
  ) AS q
    ON q.o = v.o AND q.t1 IS NOT DISTINCT FROM sc1.label
), st1 AS MATERIALIZED (
  SELECT
    st.*,
    v.x1,
    cv.label AS l1
  FROM st0 AS st
  JOIN (
    SELECT DISTINCT
      o,
      s1,
      x1
    FROM pts
  ) AS v
    ON v.o = st.o AND v.s1 = st.s1
  JOIN "temp"."main"."wk metrics cover's" AS cv
    ON cv.attr = 1 AND cv.value = v.x1
  JOIN (
    SELECT DISTINCT
      o,
      t1,
      l1
    FROM pat
  ) AS q
    ON q.o = st.o AND q.l1 = cv.label AND q.t1 IS NOT DISTINCT FROM st.t1
), st2 AS MATERIALIZED (
  SELECT
    st.*,
    v.x2,
    cv.label AS l2
  FROM st1 AS st
  JOIN (
    SELECT DISTINCT
      o,
      s1,
      x1,
      x2
    FROM pts
  ) AS v
    ON v.o = st.o AND v.s1 = st.s1 AND v.x1 = st.x1
  JOIN "temp"."main"."wk metrics cover's" AS cv
    ON cv.attr = 2 AND cv.value = v.x2
  JOIN (
    SELECT DISTINCT
      o,
      t1,
      l1,
      l2
    FROM pat
  ) AS q
    ON q.o = st.o AND q.l2 = cv.label AND q.t1 IS NOT DISTINCT FROM st.t1 AND q.l1 = st.l1
), st3 AS MATERIALIZED (
  SELECT
    st.*,
    v.x3,
    cv.label AS l3
  FROM st2 AS st
  JOIN (
    SELECT DISTINCT
      o,
      s1,
      x1,
      x2,
      x3
    FROM pts
  ) AS v
    ON v.o = st.o AND v.s1 = st.s1 AND v.x1 = st.x1 AND v.x2 = st.x2
  JOIN "temp"."main"."wk metrics cover's" AS cv
    ON cv.attr = 3 AND cv.value = v.x3
  JOIN (
    SELECT DISTINCT
      o,
      t1,
      l1,
      l2,
      l3
    FROM pat
  ) AS q
    ON q.o = st.o
    AND q.l3 = cv.label
    AND q.t1 IS NOT DISTINCT FROM st.t1
    AND q.l1 = st.l1
    AND q.l2 = st.l2
), st4 AS MATERIALIZED (
  SELECT
    st.*,
    v.x4,
    cv.label AS l4
  FROM st3 AS st
  JOIN (
    SELECT DISTINCT
      o,
      s1,
      x1,
      x2,
      x3,
      x4
    FROM pts
  ) AS v
    ON v.o = st.o AND v.s1 = st.s1 AND v.x1 = st.x1 AND v.x2 = st.x2 AND v.x3 = st.x3
  JOIN "temp"."main"."wk metrics cover's" AS cv
    ON cv.attr = 4 AND cv.value = v.x4
  JOIN (
    SELECT DISTINCT
      o,
      t1,
      l1,
      l2,
      l3,
      l4
    FROM pat
  ) AS q
    ON q.o = st.o
    AND q.l4 = cv.label
    AND q.t1 IS NOT DISTINCT FROM st.t1
    AND q.l1 = st.l1
    AND q.l2 = st.l2
    AND q.l3 = st.l3
), hit AS (
  SELECT
    st.x1,
    st.x2,
    st.x3,
    st.x4,
    st.s1,
    SUM(mass.m) AS fstar
  FROM st4 AS st
  JOIN mass
    ON mass.o = st.o
    AND mass.l1 = st.l1
    AND mass.l2 = st.l2
    AND mass.l3 = st.l3
    AND mass.l4 = st.l4
    AND mass.t1 IS NOT DISTINCT FROM st.t1
  GROUP BY ALL
)
SELECT
  (
    SELECT
      SUM(p.n / total.n_source * LN(p.n / total.n_source / hit.fstar))
    FROM hit
    JOIN pts AS p
      ON p.o = 1
      AND p.x1 = hit.x1
      AND p.x2 = hit.x2
      AND p.x3 = hit.x3
      AND p.x4 = hit.x4
      AND p.s1 = hit.s1
    CROSS JOIN total
  ) AS kl,
  (
    SELECT
      COUNT(*)
    FROM pts
  ) AS points,
  (
    SELECT
      COUNT(*)
    FROM pts
  ) - (
    SELECT
      COUNT(*)
    FROM hit
  ) AS uncovered
