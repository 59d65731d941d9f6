/* purpose: Hilbert coordinates of rows: per QI the 0-based rank of the row's value in its domain (hilbert/domains.sql) and an SA id (tp/sa_ids.sql); all rows, or only those of one group of an assignment */
/* params: r_gid, seed */
/* hints: joins-in-order */
/* returns: rid, sid, c1..cd (ranks), keyed (seed read only then): and tie (the seeded key of the source row id, _macros/seeded_key.sql), in no order (Hilbert-l orders the rows by curve key and tie, else rid); the domains' sizes: hilbert/domain_sizes.sql */
/* ref: SPEC §1.12(a) (coordinates over the attribute's domain in T, not only over R); Ghinita et al. VLDB 2007 (reconstructed) */
/*      null_safe: a column may hold NULL (--null-as-value); else the joins are plain equalities, which PostgreSQL */
/*      hashes as they are, where a null-safe equality is hashed through both sides cast to text */
/*      keyed: the source is read as it is (TP+), so its ties fall by the seeded key, in the order of the seeded copy's row ids */
/*      joins-in-order: the group's rows are found first, then their values looked up (PostgreSQL looked up all the */
/*      source's values first) */
WITH ldiv_keyed AS (
  SELECT
    CAST((
      CAST(CAST('x' || ENCODE(TIDSEND(src.ctid), 'hex') AS BIT(48)) AS BIGINT) - 1
    ) AS BIGINT) AS rid,
    CAST((
      CAST(CAST('x' || ENCODE(TIDSEND(src.ctid), 'hex') AS BIT(48)) AS BIGINT) - 1
    ) AS BIGINT) AS ldiv_k,
    s.sid,
    "dom1".r AS "c1",
    "dom2".r AS "c2",
    "dom3".r AS "c3",
    "dom4".r AS "c4"
  FROM "main"."select" AS src
  JOIN "pg_temp"."wk tp assignment's" AS asg
    ON asg.rid = (
      CAST(CAST('x' || ENCODE(TIDSEND(src.ctid), 'hex') AS BIT(48)) AS BIGINT) - 1
    )
    AND asg.gid = (
      CAST(%(r_gid)s AS BIGINT)
    )
  JOIN "pg_temp"."wk tp sa ids's" AS s
    ON (
      src."ünï" IS NULL
    ) = (
      s.v IS NULL
    )
    AND COALESCE(CAST(src."ünï" AS TEXT), '') = COALESCE(CAST(s.v AS TEXT), '')
  JOIN "pg_temp"."wk hilbert domains's" AS "dom1"
    ON "dom1".i = 1
    AND (
      src."it's" IS NULL
    ) = (
      "dom1"."v1" IS NULL
    )
    AND COALESCE(CAST(src."it's" AS TEXT), '') = COALESCE(CAST("dom1"."v1" AS TEXT), '')
  JOIN "pg_temp"."wk hilbert domains's" AS "dom2"
    ON "dom2".i = 2
    AND (
      src."a""b" IS NULL
    ) = (
      "dom2"."v2" IS NULL
    )
    AND COALESCE(CAST(src."a""b" AS TEXT), '') = COALESCE(CAST("dom2"."v2" AS TEXT), '')
  JOIN "pg_temp"."wk hilbert domains's" AS "dom3"
    ON "dom3".i = 3
    AND (
      src."Zip Code" IS NULL
    ) = (
      "dom3"."v3" IS NULL
    )
    AND COALESCE(CAST(src."Zip Code" AS TEXT), '') = COALESCE(CAST("dom3"."v3" AS TEXT), '')
  JOIN "pg_temp"."wk hilbert domains's" AS "dom4"
    ON "dom4".i = 4
    AND (
      src."select" IS NULL
    ) = (
      "dom4"."v4" IS NULL
    )
    AND COALESCE(CAST(src."select" AS TEXT), '') = COALESCE(CAST("dom4"."v4" AS TEXT), '')
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
  rid,
  sid,
  "c1",
  "c2",
  "c3",
  "c4",
  ldiv_key AS tie
FROM ldiv_keys
