/* purpose: TP's row map: every source row with its rank in the seeded tie key's order, its QI-group id and its SA id in first-appearance order */
/* params: seed */
/* returns: creates target(tie, src, g, g2, sid): tie orders the rows as TP breaks its ties: keyed (TP reads the source as it is), the seeded key of the row's source row id (the order of the row ids the seeded copy, sql/order/seeded_source.sql, would give: tp/cells.sql ranks the groups' first keys), else (the source is that copy) the row id; src = its source row id; g = a 63-bit hash of the QI values and g2 an independent one (tp/cells.sql flags a g whose rows disagree on g2, i.e. a collision); with exact_ids, g = g2 = the least key (keyed) or row id of the rows with the group's QI values; sid = 1-based SA id (tp/sa_ids.sql, keyed) */
/* ref: SPEC §1.2 (QI-groups), §0.6 (SA values in first-appearance order); DESIGN §5 (compress first: later steps work on integers), §6 (ties follow the seeded key, never the source's row ids or order); _macros/seeded_key.sql; partition/histogram.sql (the same hashing; g2 reads the salted keys, as its gid2) */
/*      null_safe: the SA may hold NULL (--null-as-value); else its join is a plain equality (hilbert/coords.sql says why) */
CREATE OR REPLACE TEMPORARY TABLE "temp"."main"."wk tp rows 2's" AS
WITH ldiv_keyed AS (
  SELECT
    CAST(src.rowid AS BIGINT) AS ldiv_k,
    src."it's" AS "q1",
    src."a""b" AS "q2",
    src."Zip Code" AS "q3",
    src."select" AS "q4",
    val.sid
  FROM "main"."select" AS src
  JOIN "temp"."main"."wk tp sa ids's" AS val
    ON src."ünï" IS NOT DISTINCT FROM val.v
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
  ldiv_key AS tie,
  ldiv_k AS src,
  MIN(ldiv_key) OVER (PARTITION BY "q1", "q2", "q3", "q4") AS g,
  MIN(ldiv_key) OVER (PARTITION BY "q1", "q2", "q3", "q4") AS g2,
  sid
FROM ldiv_keys
