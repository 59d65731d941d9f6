/* purpose: the compressed partition: per group (equal key tuple) and SA, the count of every SA value */
/* params: parts, part */
/* hints: many-groups */
/* returns: creates target(gid, gid2, s, v, unknown, n): gid = a 63-bit hash of the key tuple (or its dense rank when exact_ids), gid2 = an independent hash used to detect gid collisions, s = SA position (1-based), v = SA value as text, unknown = a NULL SA that counts in |G| but is no value (with null_as_value NULL is a value of its own), n = rows */
/* ref: DESIGN §5 (compress first); SPEC §0.1 (QI-groups, X(v)). Hashing the keys avoids sorting or storing them; partition/gid_check.sql proves the ids are collision-free before any verdict is trusted. gid2 hashes each key as text after a salt (render's salted filter): DuckDB's hash(keys, 'ldiv') is a fixed function of hash(keys), so it would miss every collision of the full 64 bits. */
/*      partitioned: only the groups whose first two key values hash to part modulo parts (the other parts */
/*      are built beside it, on other sessions: ldiv_db/verify/check.py); a group is never split, so every */
/*      statistic merges exactly. Two keys, not the whole tuple: each part hashes every row to choose, two */
/*      keys cost less than the tuple, and one key alone splits less evenly */
CREATE OR REPLACE TEMPORARY TABLE "temp"."main"."wk hist's" AS
WITH k AS (
  SELECT DISTINCT
    "it's",
    "a""b",
    "Zip Code",
    "select"
  FROM "main"."select"
), r AS (
  SELECT
    *,
    DENSE_RANK() OVER (ORDER BY "it's", "a""b", "Zip Code", "select") AS rank_id
  FROM k
)
SELECT
  r.rank_id AS gid,
  r.rank_id AS gid2,
  1 AS s,
  CAST(src."ünï" AS TEXT) AS v,
  FALSE AS unknown,
  COUNT(*) AS n
FROM "main"."select" AS src
JOIN r
  ON r."it's" IS NOT DISTINCT FROM src."it's"
  AND r."a""b" IS NOT DISTINCT FROM src."a""b"
  AND r."Zip Code" IS NOT DISTINCT FROM src."Zip Code"
  AND r."select" IS NOT DISTINCT FROM src."select"
WHERE
  CAST(HASH(src."it's", src."a""b") >> 1 AS BIGINT) % $parts = $part
GROUP BY ALL
UNION ALL
SELECT
  r.rank_id AS gid,
  r.rank_id AS gid2,
  2 AS s,
  CAST(src."order" AS TEXT) AS v,
  FALSE AS unknown,
  COUNT(*) AS n
FROM "main"."select" AS src
JOIN r
  ON r."it's" IS NOT DISTINCT FROM src."it's"
  AND r."a""b" IS NOT DISTINCT FROM src."a""b"
  AND r."Zip Code" IS NOT DISTINCT FROM src."Zip Code"
  AND r."select" IS NOT DISTINCT FROM src."select"
WHERE
  CAST(HASH(src."it's", src."a""b") >> 1 AS BIGINT) % $parts = $part
GROUP BY ALL
