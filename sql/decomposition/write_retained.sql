-- purpose: the private table of the rows kept back for a later release, with their starvation penalty at this release
-- params: release
-- returns: creates target(rk, arrived, starvation, c1..cn)
-- ref: SPEC §4.3 (P_s = release - first eligible release)
CREATE TABLE {{ target | table }} AS
SELECT p.rk, p.arrived, CAST($release AS INTEGER) - p.arrived AS starvation{% for s in slots %}, p.{{ s | ident }}{% endfor %}

FROM {{ pool | table }} AS p
WHERE p.rk NOT IN (SELECT rk FROM {{ assignment | table }})
ORDER BY p.rk
