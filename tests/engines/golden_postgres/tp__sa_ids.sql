DROP TABLE IF EXISTS "pg_temp"."wk tp sa ids 2's";
/* purpose: the SA values of the source with their 1-based ids in first-appearance order, which TP's row map and the Hilbert coordinates look up */
/* params: none */
/* hints: lookup */
/* returns: creates target(v, sid) */
/* ref: SPEC §0.6 (SA values in first-appearance order); a table of its own, not a subquery of the statements that look it up: PostgreSQL runs a join whose small side aggregates the source in parallel in its leader process alone, and a join over a small table in its workers */
CREATE TABLE "pg_temp"."wk tp sa ids 2's" AS
SELECT
  "ünï" AS v,
  ROW_NUMBER() OVER (
    ORDER BY (
      CAST(CAST('x' || ENCODE(TIDSEND(MIN(ctid)), 'hex') AS BIT(48)) AS BIGINT) - 1
    )
  ) AS sid
FROM "main"."select"
GROUP BY
  1;
ANALYZE "pg_temp"."wk tp sa ids 2's"
