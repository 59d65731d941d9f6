/* purpose: KL-divergence between the source distribution F and the release's uniform-spread estimate F*, joint over the QIs and the SA(s); the (source point, release pattern) containment join runs one attribute per stage against the trie of pattern prefixes */
/* params: none */
/* returns: kl (sum over covered points of F ln(F/F*)), points (distinct source points), uncovered (points with F* = 0: KL is infinite) */
/* ref: SPEC §0.7 (KL, TP §6.2, (l,alpha) §3.1); region = product of label covers x {SA}; a NULL ("unknown") SA covers every SA value of the source */
WITH pts AS (
  SELECT
    CAST("it's" AS TEXT) AS x1,
    CAST("a""b" AS TEXT) AS x2,
    CAST("Zip Code" AS TEXT) AS x3,
    CAST("select" AS TEXT) AS x4,
    CAST("ünï" AS TEXT) AS s1,
    COUNT(*) AS n
  FROM "main"."select"
  GROUP BY ALL
), pv AS MATERIALIZED (
  SELECT
    *,
    ROW_NUMBER() OVER () AS p
  FROM pts
), total AS (
  SELECT
    CAST(SUM(n) AS DOUBLE) AS n_source
  FROM pv
), pat AS (
  SELECT
    CAST("it's" AS TEXT) AS l1,
    CAST("a""b" AS TEXT) AS l2,
    CAST("Zip Code" AS TEXT) AS l3,
    CAST("select" AS TEXT) AS l4,
    CAST("ünï" AS TEXT) AS t1,
    COUNT(*) AS c
  FROM "main"."rel'ease ""x"""
  GROUP BY ALL
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
  FROM pv
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
), pat_changes AS (
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
    ) AS m,
    (
      LAG(pat.t1) OVER w IS DISTINCT FROM pat.t1
    ) AS c0,
    LAG(pat.l1) OVER w IS DISTINCT FROM pat.l1 AS c1,
    LAG(pat.l2) OVER w IS DISTINCT FROM pat.l2 AS c2,
    LAG(pat.l3) OVER w IS DISTINCT FROM pat.l3 AS c3,
    LAG(pat.l4) OVER w IS DISTINCT FROM pat.l4 AS c4
  FROM pat
  JOIN ncov AS k1
    ON k1.attr = 1 AND k1.label = pat.l1
  JOIN ncov AS k2
    ON k2.attr = 2 AND k2.label = pat.l2
  JOIN ncov AS k3
    ON k3.attr = 3 AND k3.label = pat.l3
  JOIN ncov AS k4
    ON k4.attr = 4 AND k4.label = pat.l4
  WINDOW w AS (ORDER BY pat.t1, pat.l1, pat.l2, pat.l3, pat.l4)
), pm AS MATERIALIZED (
  SELECT
    l1,
    l2,
    l3,
    l4,
    t1,
    m,
    SUM(CAST(c0 AS INT)) OVER w AS q0,
    SUM(CAST(c0 OR c1 AS INT)) OVER w AS q1,
    SUM(CAST(c0 OR c1 OR c2 AS INT)) OVER w AS q2,
    SUM(CAST(c0 OR c1 OR c2 OR c3 AS INT)) OVER w AS q3,
    SUM(CAST(c0 OR c1 OR c2 OR c3 OR c4 AS INT)) OVER w AS q4
  FROM pat_changes
  WINDOW w AS (ORDER BY t1, l1, l2, l3, l4 ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW)
), st0 AS MATERIALIZED (
  SELECT
    pv.p,
    w.q0 AS q
  FROM pv
  JOIN sa_cover1 AS sc1
    ON sc1.value = pv.s1
  JOIN (
    SELECT DISTINCT
      q0,
      t1
    FROM pm
  ) AS w
    ON w.t1 IS NOT DISTINCT FROM sc1.label
), lab1 AS MATERIALIZED (
  SELECT
    st.p,
    st.q,
    cv.label
  FROM st0 AS st
  JOIN pv
    ON pv.p = st.p
  JOIN "temp"."main"."wk metrics cover's" AS cv
    ON cv.attr = 1 AND cv.value = pv.x1
), st1 AS MATERIALIZED (
  SELECT
    b.p,
    lt.q
  FROM lab1 AS b
  JOIN (
    SELECT DISTINCT
      q0 AS qq,
      q1 AS q,
      l1 AS l
    FROM pm
  ) AS lt
    ON lt.qq = b.q AND lt.l = b.label
), lab2 AS MATERIALIZED (
  SELECT
    st.p,
    st.q,
    cv.label
  FROM st1 AS st
  JOIN pv
    ON pv.p = st.p
  JOIN "temp"."main"."wk metrics cover's" AS cv
    ON cv.attr = 2 AND cv.value = pv.x2
), st2 AS MATERIALIZED (
  SELECT
    b.p,
    lt.q
  FROM lab2 AS b
  JOIN (
    SELECT DISTINCT
      q1 AS qq,
      q2 AS q,
      l2 AS l
    FROM pm
  ) AS lt
    ON lt.qq = b.q AND lt.l = b.label
), lab3 AS MATERIALIZED (
  SELECT
    st.p,
    st.q,
    cv.label
  FROM st2 AS st
  JOIN pv
    ON pv.p = st.p
  JOIN "temp"."main"."wk metrics cover's" AS cv
    ON cv.attr = 3 AND cv.value = pv.x3
), st3 AS MATERIALIZED (
  SELECT
    b.p,
    lt.q
  FROM lab3 AS b
  JOIN (
    SELECT DISTINCT
      q2 AS qq,
      q3 AS q,
      l3 AS l
    FROM pm
  ) AS lt
    ON lt.qq = b.q AND lt.l = b.label
), lab4 AS MATERIALIZED (
  SELECT
    st.p,
    st.q,
    cv.label
  FROM st3 AS st
  JOIN pv
    ON pv.p = st.p
  JOIN "temp"."main"."wk metrics cover's" AS cv
    ON cv.attr = 4 AND cv.value = pv.x4
), st4 AS MATERIALIZED (
  SELECT
    b.p,
    lt.q
  FROM lab4 AS b
  JOIN (
    SELECT DISTINCT
      q3 AS qq,
      q4 AS q,
      l4 AS l
    FROM pm
  ) AS lt
    ON lt.qq = b.q AND lt.l = b.label
), hit AS (
  SELECT
    st.p,
    SUM(pm.m) AS fstar
  FROM st4 AS st
  JOIN pm
    ON pm.q4 = st.q
  GROUP BY
    st.p
)
SELECT
  (
    SELECT
      SUM(pv.n / total.n_source * LN(pv.n / total.n_source / hit.fstar))
    FROM hit
    JOIN pv
      ON pv.p = hit.p
    CROSS JOIN total
  ) AS kl,
  (
    SELECT
      COUNT(*)
    FROM pv
  ) AS points,
  (
    SELECT
      COUNT(*)
    FROM pv
  ) - (
    SELECT
      COUNT(*)
    FROM hit
  ) AS uncovered
