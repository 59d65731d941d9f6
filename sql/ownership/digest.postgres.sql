-- purpose: a table's fingerprint on PostgreSQL: its row count and the sum of its rows' hashes. When every column's type has a default hash operator class (its own, or one of a type it is binary-coercible to: varchar uses text's), each row is hashed by hash_record_extended (the column types' own hash functions; the digest carries the prefix r:); otherwise, and with legacy (a digest recorded before that prefix existed), by the hash of the row's text (record_out per row, about four times slower)
-- params: none
-- returns: n, digest
-- ref: ldiv_db/core/ownership.py (a release is replaced only while it is as ldiv_db wrote it); the hashability test runs once, on the columns of the rows' own type (an empty table has none: digest 0 either way), and CASE keeps hash_record_extended away from a type it cannot hash. The test is a scalar subquery (an init plan, computed once and handed to the parallel workers) rather than a joined row: joined, the sum ran in the leader over every row gathered from the workers (as an init plan the workers sum their parts)
WITH hashable AS (
{% if legacy | default(false) %}
    SELECT false AS ok
{% else %}
    SELECT coalesce(bool_and(EXISTS (
        SELECT 1
        FROM pg_catalog.pg_opclass AS o
        JOIN pg_catalog.pg_am AS am ON am.oid = o.opcmethod
        WHERE am.amname = 'hash' AND o.opcdefault
          AND (o.opcintype = a.atttypid OR EXISTS (
              SELECT 1 FROM pg_catalog.pg_cast AS bc
              WHERE bc.castsource = a.atttypid AND bc.casttarget = o.opcintype AND bc.castmethod = 'b'
          ))
    )), false) AS ok
    FROM pg_catalog.pg_attribute AS a
    JOIN pg_catalog.pg_type AS rt ON rt.typrelid = a.attrelid
    WHERE rt.oid = (SELECT pg_typeof(r) FROM {{ target | table }} AS r LIMIT 1) AND a.attnum > 0 AND NOT a.attisdropped
{% endif %}
)
SELECT
    count(*) AS n,
    CASE WHEN (SELECT ok FROM hashable) THEN 'r:' ELSE '' END
        || CAST(coalesce(sum(CASE WHEN (SELECT ok FROM hashable) THEN hash_record_extended(t, 0) & 9223372036854775807 ELSE hash(t) END), 0) AS VARCHAR) AS digest
FROM {{ target | table }} AS t
