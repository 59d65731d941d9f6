DROP TABLE IF EXISTS "pg_temp"."tpl it's_empty baseline";
/* purpose: an empty table of the baseline SA distribution (the whole input's), filled by the controller */
/* params: none */
/* returns: creates target(s, v, n, r, pt): per SA s its value v (NULL: the NULL value with --null-as-value), the value's rows n in the whole input, its rank r in the distance's order (1..M) and pt, the distance of a class holding v alone as a numerator per class row (t-closeness; 0 otherwise) */
/* ref: Li, Li, Venkatasubramanian 2007 §4 (the distribution of the whole table); ldiv_db/privacy/baseline.py */
CREATE TABLE "pg_temp"."tpl it's_empty baseline" (
  s INT NOT NULL,
  v TEXT,
  n BIGINT NOT NULL,
  r INT NOT NULL,
  pt DECIMAL NOT NULL
)
