-- purpose: a statement on no table that takes the paths a release's statements take (a cross, an inner and an outer join, a grouped count, a window, a union, a global order), run once per local Spark session beside the catalog's start, so that their first use in the process is paid off the statements' path
-- params: none
-- returns: k, s, n (12 rows)
-- ref: ldiv_db/db/spark/warm.py; docs/decisions/0032-spark-session-and-statements.md (Round 5)
WITH a AS (
    SELECT x.i * 8 + y.j AS id, (x.i * 8 + y.j) % 4 AS k, CAST(x.i * 8 + y.j AS VARCHAR) AS s
    FROM (VALUES (0), (1), (2), (3), (4), (5), (6), (7)) AS x(i)
    CROSS JOIN (VALUES (0), (1), (2), (3), (4), (5), (6), (7)) AS y(j)
),
b AS (
    SELECT k, count(*) AS n, min(s) AS lo
    FROM a
    GROUP BY k
),
c AS (
    SELECT a.k, a.s, b.n, row_number() OVER (PARTITION BY a.k ORDER BY a.s) AS r
    FROM a
    JOIN b ON b.k = a.k
    LEFT JOIN b AS b2 ON b2.k = a.k + 1
    WHERE coalesce(b2.n, 0) >= 0
)
SELECT k, CASE WHEN r = 1 THEN lower(s) ELSE s END AS s, n
FROM c
WHERE r <= 2
UNION ALL
SELECT k, lo, n
FROM b
ORDER BY k, s
