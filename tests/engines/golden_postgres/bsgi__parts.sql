DROP TABLE IF EXISTS "pg_temp"."wk bsgi parts's";
/* purpose: BSGI in parts: every coded row with the part it belongs to — within its SA bucket the rows are ranked by their QI codes in the locality order (then row id) and the plan cuts those ranks into the parts' ranges */
/* params: none */
/* returns: creates target(every column of codes, rn, part): one row per source row */
/* ref: ldiv_db/algorithms/bsgi/refine/parts.py (why each part keeps its share of the classes); order = the q<i> columns, most costly to mix first (bsgi mix_order) */
CREATE TABLE "pg_temp"."wk bsgi parts's" AS
WITH ranked AS (
  SELECT
    c.*,
    ROW_NUMBER() OVER (PARTITION BY c.b ORDER BY c."q3", c."q1", c."q4", c."q2", c.rid) - 1 AS rn
  FROM "pg_temp"."wk bsgi codes's" AS c
)
SELECT
  ranked.*,
  bounds.part
FROM ranked
JOIN "pg_temp"."wk bsgi part bounds's" AS bounds
  ON bounds.b = ranked.b AND ranked.rn >= bounds.lo AND ranked.rn < bounds.hi;
ANALYZE "pg_temp"."wk bsgi parts's"
