/* purpose: the SA values of the source with their 1-based ids in first-appearance order, which TP's row map and the Hilbert coordinates look up */
/* params: seed */
/* hints: lookup */
/* returns: creates target(v, sid); keyed (seed read only then): first appearance in the order of the seeded tie key of the source's row ids (the order of the seeded copy, sql/order/seeded_source.sql, which TP does not make), else in row id order */
/* ref: SPEC §0.6 (SA values in first-appearance order); DESIGN §6 (ties follow the seeded key, never the source's row order); _macros/seeded_key.sql; a table of its own, not a subquery of the statements that look it up: PostgreSQL runs a join whose small side aggregates the source in parallel in its leader process alone, and a join over a small table in its workers */
CREATE OR REPLACE TEMPORARY TABLE "temp"."main"."wk tp sa ids 2's" AS
WITH ldiv_keyed AS (
  SELECT
    CAST(rowid AS BIGINT) AS ldiv_k,
    "ünï" AS v
  FROM "main"."select"
), ldiv_k0 AS (
  SELECT
    *,
    CAST(CAST(ldiv_k AS BIGINT) >> 31 AS BIGINT) AS ldiv_l0,
    CAST(ldiv_k AS BIGINT) % 2147483648 AS ldiv_r0
  FROM ldiv_keyed
), "ldiv_k1" AS (
  SELECT
    *,
    "ldiv_r0" AS "ldiv_l1",
    CAST(XOR(
      "ldiv_l0",
      CAST(CAST((
        CAST(XOR("ldiv_r0", CAST(CAST($seed AS BIGINT) >> 0 AS BIGINT) % 2097152) AS BIGINT) * 1103515245 + 12345
      ) >> 15 AS BIGINT) % 2147483648 AS BIGINT)
    ) AS BIGINT) AS "ldiv_r1"
  FROM "ldiv_k0"
), "ldiv_k2" AS (
  SELECT
    *,
    "ldiv_r1" AS "ldiv_l2",
    CAST(XOR(
      "ldiv_l1",
      CAST(CAST((
        CAST(XOR("ldiv_r1", CAST(CAST($seed AS BIGINT) >> 21 AS BIGINT) % 2097152) AS BIGINT) * 1664525 + 1013904223
      ) >> 15 AS BIGINT) % 2147483648 AS BIGINT)
    ) AS BIGINT) AS "ldiv_r2"
  FROM "ldiv_k1"
), "ldiv_k3" AS (
  SELECT
    *,
    "ldiv_r2" AS "ldiv_l3",
    CAST(XOR(
      "ldiv_l2",
      CAST(CAST((
        CAST(XOR("ldiv_r2", CAST(CAST($seed AS BIGINT) >> 42 AS BIGINT) % 2097152) AS BIGINT) * 22695477 + 2531011
      ) >> 15 AS BIGINT) % 2147483648 AS BIGINT)
    ) AS BIGINT) AS "ldiv_r3"
  FROM "ldiv_k2"
), "ldiv_k4" AS (
  SELECT
    *,
    "ldiv_r3" AS "ldiv_l4",
    CAST(XOR(
      "ldiv_l3",
      CAST(CAST((
        CAST(XOR("ldiv_r3", CAST(CAST($seed AS BIGINT) >> 11 AS BIGINT) % 2097152) AS BIGINT) * 134775813 + 1
      ) >> 15 AS BIGINT) % 2147483648 AS BIGINT)
    ) AS BIGINT) AS "ldiv_r4"
  FROM "ldiv_k3"
), "ldiv_k5" AS (
  SELECT
    *,
    "ldiv_r4" AS "ldiv_l5",
    CAST(XOR(
      "ldiv_l4",
      CAST(CAST((
        CAST(XOR("ldiv_r4", CAST(CAST($seed AS BIGINT) >> 32 AS BIGINT) % 2097152) AS BIGINT) * 1588635695 + 7
      ) >> 15 AS BIGINT) % 2147483648 AS BIGINT)
    ) AS BIGINT) AS "ldiv_r5"
  FROM "ldiv_k4"
), "ldiv_k6" AS (
  SELECT
    *,
    "ldiv_r5" AS "ldiv_l6",
    CAST(XOR(
      "ldiv_l5",
      CAST(CAST((
        CAST(XOR("ldiv_r5", CAST(CAST($seed AS BIGINT) >> 53 AS BIGINT) % 2097152) AS BIGINT) * 1340134909 + 11
      ) >> 15 AS BIGINT) % 2147483648 AS BIGINT)
    ) AS BIGINT) AS "ldiv_r6"
  FROM "ldiv_k5"
), ldiv_keys AS (
  SELECT
    *,
    ldiv_l6 * 2147483648 + ldiv_r6 AS ldiv_key
  FROM ldiv_k6
)
SELECT
  v,
  ROW_NUMBER() OVER (ORDER BY MIN(ldiv_key)) AS sid
FROM ldiv_keys
GROUP BY
  v
