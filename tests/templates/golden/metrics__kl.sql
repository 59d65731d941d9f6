/* purpose: KL-divergence between the source distribution F and the release's uniform-spread estimate F*, joint over the QIs and the SA(s), set-based: distinct source points are joined to the distinct release patterns whose region contains them */
/* params: none */
/* returns: kl (sum over covered points of F ln(F/F*)), points (distinct source points), uncovered (points with F* = 0: KL is infinite) */
/* ref: SPEC §0.7 (KL, TP §6.2, (l,alpha) §3.1); region = product of label covers x {SA}; a NULL ("unknown") SA covers every SA value of the source */
WITH pts AS (
  SELECT
    CAST(x1 AS TEXT) AS x1,
    CAST(x2 AS TEXT) AS x2,
    CAST(x3 AS TEXT) AS x3,
    CAST(x4 AS TEXT) AS x4,
    CAST(s1 AS TEXT) AS s1,
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
    CAST("ünï" AS TEXT) AS v
  FROM "main"."select"
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
      FROM "main"."rel'ease ""x"""
      WHERE
        "ünï" IS NULL
    )
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
), hit AS (
  SELECT
    p.x1,
    p.x2,
    p.x3,
    p.x4,
    p.s1,
    p.n,
    SUM(mass.m) AS fstar
  FROM pts AS p
  JOIN sa_cover1 AS sc1
    ON sc1.value = p.s1
  JOIN mass
    ON mass.t1 IS NOT DISTINCT FROM sc1.label
  JOIN "temp"."main"."wk metrics cover's" AS c1
    ON c1.attr = 1 AND c1.label = mass.l1 AND c1.value = p.x1
  JOIN "temp"."main"."wk metrics cover's" AS c2
    ON c2.attr = 2 AND c2.label = mass.l2 AND c2.value = p.x2
  JOIN "temp"."main"."wk metrics cover's" AS c3
    ON c3.attr = 3 AND c3.label = mass.l3 AND c3.value = p.x3
  JOIN "temp"."main"."wk metrics cover's" AS c4
    ON c4.attr = 4 AND c4.label = mass.l4 AND c4.value = p.x4
  GROUP BY ALL
)
SELECT
  (
    SELECT
      SUM(hit.n / total.n_source * LN(hit.n / total.n_source / hit.fstar))
    FROM hit, total
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
