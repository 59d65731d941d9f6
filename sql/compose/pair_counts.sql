-- purpose: per pair of releases, the source rows the two alone leave fewer SA values than the smaller of their l values, every pair (or every pair holding one release) in one statement
-- params: ls, most
-- returns: a, b, below (one row per pair counted, a < b the releases' positions)
-- ref: docs/decisions/0005-composition-check.md ("Pairs in a fixed number of statements"). A pair's union masks are a release's shared mask (compose/shared.sql) OR its unit's own (compose/pair_units.sql), so the values both leave a combination are: the two shared masks' AND over every word (gp), plus on each word of one's own mask what its own bits add against the other's shared mask (y, each way), plus on the words both have own masks what neither of those counted (x). A release that does not hold the rows takes part as every value: the other's values (gs + v), or the whole domain when neither holds them. Only the combinations that all the releases leave fewer than most values are read (a pair leaves a row at least those). ls: the releases' l in their order; most: the largest l of a pair counted; m (shape): the releases; only (shape): the position of the release whose pairs alone are counted, or none for every pair
WITH rel AS (
{% for r in range(1, m + 1) %}
    SELECT {{ loop.index }} AS r, list_extract($ls, {{ loop.index }}) AS l
{% if not loop.last %}
    UNION ALL
{% endif %}
{% endfor %}
),
pr AS (
    SELECT x.r AS a, y.r AS b, least(x.l, y.l) AS l
    FROM rel AS x
    JOIN rel AS y ON x.r < y.r
{% if only %}
    WHERE x.r = {{ only }} OR y.r = {{ only }}
{% endif %}
),
t AS (
    SELECT cmb, present, sum(n) AS n, min(left_all) AS left_all
    FROM {{ values | table }}
    WHERE left_all < $most
    GROUP BY cmb, present
),
s AS (
{% for r in range(1, m + 1) %}
    SELECT {{ loop.index }} AS r, word, {{ ('a' ~ loop.index) | ident }} AS mask FROM {{ shared | table }} WHERE {{ ('a' ~ loop.index) | ident }} <> 0
{% if not loop.last %}
    UNION ALL
{% endif %}
{% endfor %}
),
gs AS (
    SELECT r, sum(bit_count(mask)) AS g FROM s GROUP BY r
),
gp AS (
    SELECT pr.a, pr.b, sum(bit_count(x.mask & y.mask)) AS g
    FROM pr
    JOIN s AS x ON x.r = pr.a
    JOIN s AS y ON y.r = pr.b AND y.word = x.word
    GROUP BY pr.a, pr.b
),
v AS (
    SELECT o.cmb, o.r, sum(bit_count(o.mask | coalesce(s.mask, 0)) - bit_count(coalesce(s.mask, 0))) AS v
    FROM {{ own | table }} AS o
    LEFT JOIN s ON s.r = o.r AND s.word = o.word
    GROUP BY o.cmb, o.r
),
y AS (
    SELECT o.cmb, o.r, q.r AS q,
           sum(bit_count(q.mask & (o.mask | coalesce(s.mask, 0))) - bit_count(q.mask & coalesce(s.mask, 0))) AS y
    FROM {{ own | table }} AS o
    JOIN s AS q ON q.word = o.word AND q.r <> o.r
    LEFT JOIN s ON s.r = o.r AND s.word = o.word
{% if only %}
    WHERE o.r = {{ only }} OR q.r = {{ only }}
{% endif %}
    GROUP BY o.cmb, o.r, q.r
),
x AS (
    SELECT oa.cmb, oa.r AS a, ob.r AS b,
           sum(bit_count((oa.mask | coalesce(sa.mask, 0)) & (ob.mask | coalesce(sb.mask, 0)))
               - bit_count(coalesce(sb.mask, 0) & (oa.mask | coalesce(sa.mask, 0)))
               - bit_count(coalesce(sa.mask, 0) & (ob.mask | coalesce(sb.mask, 0)))
               + bit_count(coalesce(sa.mask, 0) & coalesce(sb.mask, 0))) AS x
    FROM {{ own | table }} AS oa
    JOIN {{ own | table }} AS ob ON ob.cmb = oa.cmb AND ob.word = oa.word AND ob.r > oa.r
    LEFT JOIN s AS sa ON sa.r = oa.r AND sa.word = oa.word
    LEFT JOIN s AS sb ON sb.r = ob.r AND sb.word = oa.word
{% if only %}
    WHERE oa.r = {{ only }} OR ob.r = {{ only }}
{% endif %}
    GROUP BY oa.cmb, oa.r, ob.r
),
tp AS (
    SELECT t.cmb, t.n, pr.a, pr.b, pr.l,
           substring(t.present, pr.a, 1) = '1' AS pa, substring(t.present, pr.b, 1) = '1' AS pb
    FROM t
    JOIN pr ON t.left_all < pr.l
),
d AS (
    SELECT count(*) AS size FROM {{ domain | table }}
),
lp AS (
    SELECT tp.a, tp.b, tp.n, tp.l,
           CASE WHEN tp.pa AND tp.pb THEN coalesce(gp.g, 0) + coalesce(x.x, 0) + coalesce(ya.y, 0) + coalesce(yb.y, 0)
                WHEN tp.pa THEN coalesce(ga.g, 0) + coalesce(va.v, 0)
                WHEN tp.pb THEN coalesce(gb.g, 0) + coalesce(vb.v, 0)
                ELSE d.size END AS left_pair
    FROM tp
    CROSS JOIN d
    LEFT JOIN gp ON gp.a = tp.a AND gp.b = tp.b
    LEFT JOIN x ON x.cmb = tp.cmb AND x.a = tp.a AND x.b = tp.b
    LEFT JOIN y AS ya ON ya.cmb = tp.cmb AND ya.r = tp.a AND ya.q = tp.b
    LEFT JOIN y AS yb ON yb.cmb = tp.cmb AND yb.r = tp.b AND yb.q = tp.a
    LEFT JOIN gs AS ga ON ga.r = tp.a
    LEFT JOIN gs AS gb ON gb.r = tp.b
    LEFT JOIN v AS va ON va.cmb = tp.cmb AND va.r = tp.a
    LEFT JOIN v AS vb ON vb.cmb = tp.cmb AND vb.r = tp.b
)
SELECT pr.a, pr.b, CAST(coalesce(sum(lp.n) FILTER (WHERE lp.left_pair < lp.l), 0) AS BIGINT) AS below
FROM pr
LEFT JOIN lp ON lp.a = pr.a AND lp.b = pr.b
GROUP BY pr.a, pr.b
ORDER BY pr.a, pr.b
