-- purpose: how many SA values the releases leave each target: the intersection (AND of the union masks) over the releases holding its row, its bits counted (bit_count)
-- params: none
-- returns: creates target(pid, present, n, cmb, left_all) (cmb: the target's combination, compose/combos.sql); a target no release holds is left every value of the SA domain
-- ref: docs/decisions/0005-composition-check.md ("A class that covers every target", "A class that covers many targets"); a release not holding the row (a '0' in keys.sql's present text) takes part as -1 (every bit set). A release's union for a target is its shared mask (shared.sql) OR its unit's mask (membership.sql). The counts are made once per combination of units (membership.sql's rows), then given to the targets of the combination. Words where the combination has no own mask count the same for every target held by the same releases: g counts every shared word once per such presence, and each own word replaces its shared-only count (y) by its full one (x)
{{ target | create_table }} AS
WITH k AS (
    SELECT p.pid, k.present, k.n, c.cmb
    FROM {{ keys | table }} AS k
    JOIN {{ points | table }} AS p ON {% for v in vs %}p.{{ v | ident }} = k.{{ v | ident }}{% if not loop.last %} AND {% endif %}{% endfor %}

    JOIN {{ combos | table }} AS c ON c.pid = p.pid AND c.present = k.present
),
a AS (
    SELECT cp.cmb
         , {% for r in range(1, m + 1) %}CASE WHEN substring(cp.present, {{ r }}, 1) = '1' THEN coalesce(s.{{ ('a' ~ r) | ident }}, 0) | coalesce(m.{{ ('m' ~ r) | ident }}, 0) ELSE -1 END{% if not loop.last %} & {% endif %}{% endfor %} AS x
         , {% for r in range(1, m + 1) %}CASE WHEN substring(cp.present, {{ r }}, 1) = '1' THEN coalesce(s.{{ ('a' ~ r) | ident }}, 0) ELSE -1 END{% if not loop.last %} & {% endif %}{% endfor %} AS y
    FROM (SELECT DISTINCT cmb, present FROM k) AS cp
    LEFT JOIN {{ membership | table }} AS m ON m.cmb = cp.cmb
    LEFT JOIN {{ shared | table }} AS s ON s.word = m.word
),
own AS (
    SELECT cmb, sum(bit_count(x)) - sum(bit_count(y)) AS o
    FROM a
    GROUP BY cmb
),
h AS (
    SELECT DISTINCT present FROM k
),
z AS (
    SELECT h.present
         , {% for r in range(1, m + 1) %}CASE WHEN substring(h.present, {{ r }}, 1) = '1' THEN coalesce(s.{{ ('a' ~ r) | ident }}, 0) ELSE -1 END{% if not loop.last %} & {% endif %}{% endfor %} AS z
    FROM h
    CROSS JOIN {{ shared | table }} AS s
),
g AS (
    SELECT present, sum(bit_count(z)) AS g
    FROM z
    GROUP BY present
),
d AS (
    SELECT count(*) AS size FROM {{ domain | table }}
)
SELECT k.pid, k.present, CAST(k.n AS BIGINT) AS n, k.cmb,
       CAST(CASE WHEN k.present NOT LIKE '%1%' THEN d.size ELSE own.o + coalesce(g.g, 0) END AS BIGINT) AS left_all
FROM k
JOIN own ON own.cmb = k.cmb
CROSS JOIN d
LEFT JOIN g ON g.present = k.present
