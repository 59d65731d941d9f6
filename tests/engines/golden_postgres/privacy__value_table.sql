DROP TABLE IF EXISTS "pg_temp"."wk values's";
/* purpose: an empty per-value parameter table (thresholds p/q, or category and weight numerator), filled by the controller */
/* params: none */
/* returns: creates target(s, v, p, q, category) */
/* ref: SPEC §0.3 (thresholds as exact fractions p/q), §3.1 (categories and weights) */
CREATE TABLE "pg_temp"."wk values's" (
  s INT NOT NULL,
  v TEXT, /* NULL: the NULL value (with --null-as-value) */
  p DECIMAL NOT NULL,
  q DECIMAL NOT NULL,
  category INT
)
