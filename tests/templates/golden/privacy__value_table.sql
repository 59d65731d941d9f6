/* purpose: an empty per-value parameter table (thresholds p/q, or category and weight numerator), filled by the controller */
/* params: none */
/* returns: creates target(s, v, p, q, category) */
/* ref: SPEC §0.3 (thresholds as exact fractions p/q), §3.1 (categories and weights) */
CREATE OR REPLACE TEMPORARY TABLE "temp"."main"."wk values's" (
  s INT NOT NULL,
  v TEXT, /* NULL: the NULL value (with --null-as-value) */
  p INT128 NOT NULL,
  q INT128 NOT NULL,
  category INT
)
