DROP TABLE IF EXISTS "pg_temp"."wk metrics domain from's";
/* purpose: the empty domain work table, with metrics/domain.sql's columns and types, to hold the rows a second reader built it with */
/* params: none */
/* returns: creates target(attr, value, num, source_rows, code) */
/* ref: ldiv_db/utility/source_side.py (the domain depends on the source only, so it is read while the algorithm runs) */
CREATE TABLE "pg_temp"."wk metrics domain from's" (
  attr INT,
  value TEXT,
  num DOUBLE PRECISION,
  source_rows BIGINT,
  code INT
)
