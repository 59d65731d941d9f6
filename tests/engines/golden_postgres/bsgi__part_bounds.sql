DROP TABLE IF EXISTS "pg_temp"."wk bsgi part bounds's";
/* purpose: the empty table of BSGI's parts plan: per SA bucket and part, the half-open range of the bucket's row ranks the part takes */
/* params: none */
/* returns: creates target(b, part, lo, hi) */
/* ref: ldiv_db/algorithms/bsgi/refine/parts.py (the plan); sql/bsgi/parts.sql reads it */
CREATE TABLE "pg_temp"."wk bsgi part bounds's" (
  b BIGINT,
  part BIGINT,
  lo BIGINT,
  hi BIGINT
)
