/* purpose: drop one of the metrics work tables (attrs, domain, labels, cover) once the metrics are read */
/* params: none */
/* returns: nothing */
/* ref: DESIGN §3 (work tables are dropped on success, kept with --keep-work) */
DROP TABLE IF EXISTS "pg_temp"."wk metrics dropme's"
