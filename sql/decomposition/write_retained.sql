-- purpose: the private table of the rows kept back for a later release, with their starvation penalty at this release
-- params: release
-- returns: creates target(rk, arrived, starvation, c1..cn)
-- ref: SPEC §4.3 (P_s = release - first eligible release)
--      all_placed: the release assigned every pool row, so none is kept back (no anti-join of the pool);
--      the reconciliation counts assigned + kept back against the pool's rows, so a wrong flag is caught
CREATE TABLE {{ target | table }} AS
SELECT p.rk, p.arrived, CAST($release AS INTEGER) - p.arrived AS starvation{% for s in slots %}, p.{{ s | ident }}{% endfor %}

FROM {{ pool | table }} AS p
{% if all_placed %}
WHERE false
{% else %}
WHERE p.rk NOT IN (SELECT rk FROM {{ assignment | table }})
{% endif %}
ORDER BY p.rk
