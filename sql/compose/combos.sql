-- purpose: per target vector and set of releases holding its rows, the unit each of those releases leaves it (compose/units.sql), and per set of releases the check counts (sets) the number of the target's combination in it: targets of one combination are left the same values by that set
-- params: none
-- returns: creates target(pid, present, u1..uM, c0..cP): u<r> NULL where release r does not hold the rows (it tells nothing) or no class but a shared one covers the target; c<s> numbers the distinct (present within set s, the units of set s's releases)
-- ref: docs/decisions/0005-composition-check.md ("A class that covers many targets": the values left are computed once per combination, not per target); sets (shape): the releases of each set, 1-based (values_left.sql's), set_bits their bits
{{ target | create_table }} AS
WITH tp AS (
    SELECT DISTINCT p.pid, k.present
    FROM {{ keys | table }} AS k
    JOIN {{ points | table }} AS p ON {% for v in vs %}p.{{ v | ident }} = k.{{ v | ident }}{% if not loop.last %} AND {% endif %}{% endfor %}

),
tu AS (
    SELECT tp.pid, tp.present{% for u in units %}{% set r = loop.index %}, CASE WHEN (tp.present & {{ 2 ** (r - 1) }}) <> 0 THEN {{ ('x' ~ r) | ident }}.uid END AS {{ ('u' ~ r) | ident }}{% endfor %}

    FROM tp
{% for u in units %}
{% set r = loop.index %}
    LEFT JOIN {{ u | table }} AS {{ ('x' ~ r) | ident }} ON {{ ('x' ~ r) | ident }}.pid = tp.pid
{% endfor %}
)
SELECT pid, present{% for u in units %}, {{ ('u' ~ loop.index) | ident }}{% endfor %}

{% for set in sets %}
     , dense_rank() OVER (ORDER BY present & {{ set_bits[loop.index0] }}{% for r in set %}, {{ ('u' ~ r) | ident }}{% endfor %}) AS {{ ('c' ~ loop.index0) | ident }}
{% endfor %}
FROM tu
