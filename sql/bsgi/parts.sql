-- purpose: BSGI in parts: every coded row with the part it belongs to — within its SA bucket the rows are ranked by their QI codes in the locality order (then row id) and the plan cuts those ranks into the parts' ranges
-- params: none
-- returns: creates target(every column of codes, rn, part): one row per source row
-- ref: ldiv_db/algorithms/bsgi/refine/parts.py (why each part keeps its share of the classes); order = the q<i> columns, most costly to mix first (bsgi mix_order)
{{ target | create_table }} AS
WITH ranked AS (
    SELECT c.*,
           row_number() OVER (PARTITION BY c.b ORDER BY {% for q in order %}c.{{ q | ident }}, {% endfor %}c.rid) - 1 AS rn
    FROM {{ codes | table }} AS c
)
SELECT ranked.*, bounds.part
FROM ranked
JOIN {{ bounds | table }} AS bounds
  ON bounds.b = ranked.b AND ranked.rn >= bounds.lo AND ranked.rn < bounds.hi
