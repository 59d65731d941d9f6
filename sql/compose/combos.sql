-- purpose: per target vector and set of releases holding its rows, the unit each of those releases leaves it (compose/units.sql), and per set of releases the check counts (sets) the number of the target's combination in it: targets of one combination are left the same values by that set
-- params: none
-- returns: creates target(pid, present, u1..uM, c0..cP): u<r> 0 where release r does not hold the rows (it tells nothing) or no class but a shared one covers the target (a unit is never 0: compose/units.sql); c<s> names the distinct (present within set s, the units of set s's releases) by its least (pid, present) number: a target vector whose rows are held by different releases (a release deleted some of them) is in several combinations, so its pid alone names none
-- ref: docs/decisions/0005-composition-check.md ("A class that covers many targets": the values left are computed once per combination, not per target); sets (shape): the releases of each set, 1-based (values_left.sql's), set_bits their bits
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
    SELECT tp.pid, tp.present, tp.tid{% for u in units %}{% set r = loop.index %}, coalesce(CASE WHEN (tp.present & {{ 2 ** (r - 1) }}) <> 0 THEN {{ ('x' ~ r) | ident }}.uid END, 0) AS {{ ('u' ~ r) | ident }}{% endfor %}

    FROM tp
{% for u in units %}
{% set r = loop.index %}
    LEFT JOIN {{ u | table }} AS {{ ('x' ~ r) | ident }} ON {{ ('x' ~ r) | ident }}.pid = tp.pid
{% endfor %}
)
{% for set in sets %}
{% set s = loop.index0 %}
, {{ ('g' ~ s) | ident }} AS (
    SELECT present & {{ set_bits[s] }} AS p{% for r in set %}, {{ ('u' ~ r) | ident }}{% endfor %}, min(tid) AS cmb
    FROM tu
    GROUP BY present & {{ set_bits[s] }}{% for r in set %}, {{ ('u' ~ r) | ident }}{% endfor %}

)
{% endfor %}
SELECT tu.pid, tu.present{% for u in units %}, tu.{{ ('u' ~ loop.index) | ident }}{% endfor %}{% for set in sets %}, {{ ('g' ~ loop.index0) | ident }}.cmb AS {{ ('c' ~ loop.index0) | ident }}{% endfor %}

FROM tu
{% for set in sets %}
{% set s = loop.index0 %}
JOIN {{ ('g' ~ s) | ident }} ON {{ ('g' ~ s) | ident }}.p = tu.present & {{ set_bits[s] }}{% for r in set %} AND {{ ('g' ~ s) | ident }}.{{ ('u' ~ r) | ident }} = tu.{{ ('u' ~ r) | ident }}{% endfor %}

{% endfor %}
