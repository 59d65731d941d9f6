/* purpose: Hilbert coordinates of rows: per QI the 0-based rank of the row's value in its domain (hilbert/domains.sql) and an SA id (tp/sa_ids.sql); all rows, or only those of one group of an assignment */
/* params: r_gid */
/* hints: joins-in-order */
/* returns: rid, sid, c1..cd (ranks), in no order (Hilbert-l orders the rows by curve key and rid); the domains' sizes: hilbert/domain_sizes.sql */
/* ref: SPEC §1.12(a) (coordinates over the attribute's domain in T, not only over R); Ghinita et al. VLDB 2007 (reconstructed) */
/*      null_safe: a column may hold NULL (--null-as-value); else the joins are plain equalities, which PostgreSQL */
/*      hashes as they are, where a null-safe equality is hashed through both sides cast to text */
/*      joins-in-order: the group's rows are found first, then their values looked up (PostgreSQL looked up all the */
/*      source's values first) */
SELECT
  CAST((
    CAST(CAST('x' || ENCODE(TIDSEND(src.ctid), 'hex') AS BIT(48)) AS BIGINT) - 1
  ) AS BIGINT) AS rid,
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
