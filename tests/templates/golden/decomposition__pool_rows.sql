/* purpose: what group forming and noise read: per pool row its key, arrival and SA values as text, in the order of the seeded tie key of the row key */
/* params: seed */
/* returns: rk, arrived, s1..sk (VARCHAR) ordered by the seeded key of the row's rank by rk (a row key holds a PostgreSQL row id, a physical address: its rank is what every engine shares); with codes (decomposition/pool_values.sql's table), s1..sk are the codes of the rows' exact spellings (-1: none, a bug) instead of their text, which costs the fetch most of its time */
/* ref: SPEC §0.6 (first-appearance order of the primary values follows the row order); DESIGN §6 (ties are broken by a seeded key, never by the source's row order: the row key is the source row id plus an offset); _macros/seeded_key.sql; DESIGN §5 */
WITH ldiv_keyed AS (
  SELECT
    CAST(ROW_NUMBER() OVER (ORDER BY rk) - 1 AS BIGINT) AS ldiv_k,
    rk,
    arrived,
    CAST("c6" AS TEXT) AS "s1",
    CAST("c7" AS TEXT) AS "s2"
  FROM "temp"."main"."wk dec pool's"
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
  rk,
  arrived,
  "s1",
  "s2"
FROM ldiv_keys
ORDER BY
  ldiv_key,
  rk
