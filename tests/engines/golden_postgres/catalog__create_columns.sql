DROP TABLE IF EXISTS "pg_temp"."wk created's";
/* purpose: create an empty table with the given columns and types (a file loaded into another engine: the types DuckDB detected) */
/* params: none */
/* returns: creates (or replaces) target */
/* ref: issue 13 (ldiv load on PostgreSQL: DuckDB reads the file, COPY moves the rows) */
CREATE TABLE "pg_temp"."wk created's" (
  "it's" TEXT,
  "a""b" DECIMAL(18, 3),
  "ünï" DOUBLE PRECISION,
  "when" TIMESTAMP
)
