-- purpose: per target vector and set of releases holding its rows, the unit each of those releases leaves it (compose/units.sql), and the number of its combination: targets of one combination are left the same values by the releases
-- params: none
-- returns: creates target(pid, present, u1..uM, cmb): u<r> 0 where release r does not hold the rows (it tells nothing) or no class but a shared one covers the target (a unit is never 0: compose/units.sql); cmb names the distinct (present, u1..uM) by its least (pid, present) number: a target vector whose rows are held by different releases (a release deleted some of them) is in several combinations, so its pid alone names none
-- ref: docs/decisions/0005-composition-check.md ("A class that covers many targets": the values left are computed once per combination, not per target); present is keys.sql's text, one character per release; the releases' units are stacked and spread over the columns by one grouping, so the statement's plan grows with the releases, not with their square as a join per release did
{{ target | create_table }} AS
WITH tp AS (
    SELECT pid, present, row_number() OVER (ORDER BY pid, present) AS tid
    FROM (
        SELECT DISTINCT p.pid, k.present
        FROM {{ keys | table }} AS k
        JOIN {{ points | table }} AS p ON {% for v in vs %}p.{{ v | ident }} = k.{{ v | ident }}{% if not loop.last %} AND {% endif %}{% endfor %}

    ) AS d
),
tu AS (
    SELECT tp.pid, tp.present, tp.tid{% for u in units %}{% set r = loop.index %}, coalesce(max(CASE WHEN x.r = {{ r }} AND substring(tp.present, {{ r }}, 1) = '1' THEN x.uid END), 0) AS {{ ('u' ~ r) | ident }}{% endfor %}

    FROM tp
    LEFT JOIN (
{% for u in units %}
        SELECT {{ loop.index }} AS r, pid, uid FROM {{ u | table }}
{% if not loop.last %}
        UNION ALL
{% endif %}
{% endfor %}
    ) AS x ON x.pid = tp.pid
    GROUP BY tp.pid, tp.present, tp.tid
)
SELECT pid, present{% for u in units %}, {{ ('u' ~ loop.index) | ident }}{% endfor %},
       min(tid) OVER (PARTITION BY present{% for u in units %}, {{ ('u' ~ loop.index) | ident }}{% endfor %}) AS cmb
FROM tu
