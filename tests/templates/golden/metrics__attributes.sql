/* purpose: one row per QI attribute (1-based position in the QI list): whether its source column is numeric, and the hierarchy stored for it, if any */
/* params: table_name, qi_names */
/* returns: creates target(attr, is_numeric, intervals, is_integer, hierarchy_id); hierarchy_id is NULL for a flat attribute; intervals: a numeric label 'lo-hi' is read as the interval even where a hierarchy node has the same text; is_integer: the column's values are integers, whose numbers the metrics hold relative to the attribute's least value (exact below 2^53 apart) */
/* ref: SPEC §0.4 (taxonomies), §0.7 (metrics); hierarchies are looked up by (resolved source table name, column) */
CREATE OR REPLACE TEMPORARY TABLE "temp"."main"."wk metrics attrs's" AS
SELECT
  a.attr,
  a.is_numeric,
  a.intervals,
  a.is_integer,
  h.hierarchy_id
FROM (VALUES
  (1, FALSE, FALSE, FALSE),
  (2, TRUE, TRUE, TRUE),
  (3, FALSE, FALSE, FALSE),
  (4, FALSE, FALSE, FALSE)) AS a(attr, is_numeric, intervals, is_integer)
LEFT JOIN ldiv.hierarchy AS h
  ON h.table_name = $table_name AND h.column_name = $qi_names[a.attr]
