DROP TABLE IF EXISTS "pg_temp"."wk seeded it's's";
/* purpose: the source as every algorithm reads it (PostgreSQL: a row id is its physical address, page * 65536 + tuple - 1, so the key is taken of the row's position in that order, 0..n-1: the row ids DuckDB and Spark give a table loaded alike, hence the same key and the same release) */
/* params: seed */
/* returns: creates target(ldiv_source_rowid, <columns>) in the key's order */
/* ref: the DuckDB template seeded_source.sql */
CREATE TABLE "pg_temp"."wk seeded it's's" AS
WITH ldiv_keyed AS (
  SELECT
    CAST((
      CAST(CAST('x' || ENCODE(TIDSEND(ctid), 'hex') AS BIT(48)) AS BIGINT) - 1
    ) AS BIGINT) AS ldiv_source_rowid,
    CAST(ROW_NUMBER() OVER (
      ORDER BY (
        CAST(CAST('x' || ENCODE(TIDSEND(ctid), 'hex') AS BIT(48)) AS BIGINT) - 1
      )
    ) - 1 AS BIGINT) AS ldiv_k,
    "it's",
    "a""b",
    "Zip Code",
    "select",
    "ünï",
    "group",
    "order"
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
    CAST("ldiv_l0" # CAST(CAST((
      CAST("ldiv_r0" # CAST(CAST((
        CAST(%(seed)s AS BIGINT)
      ) AS BIGINT) >> 0 AS BIGINT) % 2097152 AS BIGINT) * 1103515245 + 12345
    ) >> 15 AS BIGINT) % 2147483648 AS BIGINT) AS BIGINT) AS "ldiv_r1"
  FROM "ldiv_k0"
), "ldiv_k2" AS (
  SELECT
    *,
    "ldiv_r1" AS "ldiv_l2",
    CAST("ldiv_l1" # CAST(CAST((
      CAST("ldiv_r1" # CAST(CAST((
        CAST(%(seed)s AS BIGINT)
      ) AS BIGINT) >> 21 AS BIGINT) % 2097152 AS BIGINT) * 1664525 + 1013904223
    ) >> 15 AS BIGINT) % 2147483648 AS BIGINT) AS BIGINT) AS "ldiv_r2"
  FROM "ldiv_k1"
), "ldiv_k3" AS (
  SELECT
    *,
    "ldiv_r2" AS "ldiv_l3",
    CAST("ldiv_l2" # CAST(CAST((
      CAST("ldiv_r2" # CAST(CAST((
        CAST(%(seed)s AS BIGINT)
      ) AS BIGINT) >> 42 AS BIGINT) % 2097152 AS BIGINT) * 22695477 + 2531011
    ) >> 15 AS BIGINT) % 2147483648 AS BIGINT) AS BIGINT) AS "ldiv_r3"
  FROM "ldiv_k2"
), "ldiv_k4" AS (
  SELECT
    *,
    "ldiv_r3" AS "ldiv_l4",
    CAST("ldiv_l3" # CAST(CAST((
      CAST("ldiv_r3" # CAST(CAST((
        CAST(%(seed)s AS BIGINT)
      ) AS BIGINT) >> 11 AS BIGINT) % 2097152 AS BIGINT) * 134775813 + 1
    ) >> 15 AS BIGINT) % 2147483648 AS BIGINT) AS BIGINT) AS "ldiv_r4"
  FROM "ldiv_k3"
), "ldiv_k5" AS (
  SELECT
    *,
    "ldiv_r4" AS "ldiv_l5",
    CAST("ldiv_l4" # CAST(CAST((
      CAST("ldiv_r4" # CAST(CAST((
        CAST(%(seed)s AS BIGINT)
      ) AS BIGINT) >> 32 AS BIGINT) % 2097152 AS BIGINT) * 1588635695 + 7
    ) >> 15 AS BIGINT) % 2147483648 AS BIGINT) AS BIGINT) AS "ldiv_r5"
  FROM "ldiv_k4"
), "ldiv_k6" AS (
  SELECT
    *,
    "ldiv_r5" AS "ldiv_l6",
    CAST("ldiv_l5" # CAST(CAST((
      CAST("ldiv_r5" # CAST(CAST((
        CAST(%(seed)s AS BIGINT)
      ) AS BIGINT) >> 53 AS BIGINT) % 2097152 AS BIGINT) * 1340134909 + 11
    ) >> 15 AS BIGINT) % 2147483648 AS BIGINT) AS BIGINT) AS "ldiv_r6"
  FROM "ldiv_k5"
), ldiv_keys AS (
  SELECT
    *,
    ldiv_l6 * 2147483648 + ldiv_r6 AS ldiv_key
  FROM ldiv_k6
)
SELECT
  ldiv_source_rowid,
  "it's",
  "a""b",
  "Zip Code",
  "select",
  "ünï",
  "group",
  "order"
FROM ldiv_keys
ORDER BY
  ldiv_key,
  ldiv_k;
ANALYZE "pg_temp"."wk seeded it's's"
