-- purpose: the compressed partition: per group (equal key tuple) and SA, the count of every SA value
-- params: parts, part
-- hints: many-groups
-- returns: creates target(gid, gid2, s, v, unknown, n): gid = a 63-bit hash of the key tuple (or its dense rank when exact_ids), gid2 = an independent hash used to detect gid collisions, s = SA position (1-based), v = SA value as text, unknown = a NULL SA that counts in |G| but is no value (with null_as_value NULL is a value of its own), n = rows
-- ref: DESIGN §5 (compress first); SPEC §0.1 (QI-groups, X(v)). Hashing the keys avoids sorting or storing them; partition/gid_check.sql proves the ids are collision-free before any verdict is trusted. gid2 hashes each key as text after a salt (render's salted filter): DuckDB's hash(keys, 'ldiv') is a fixed function of hash(keys), so it would miss every collision of the full 64 bits.
--      partitioned: only the groups whose first two key values hash to part modulo parts (the other parts
--      are built beside it, on other sessions: ldiv_db/verify/check.py); a group is never split, so every
--      statistic merges exactly. Two keys, not the whole tuple: each part hashes every row to choose, two
--      keys cost less than the tuple, and one key alone splits less evenly
{% set part_keys = keys[:2] %}
{{ target | create_table }} AS
{% if exact_ids %}
WITH k AS (
    SELECT DISTINCT {{ keys | idents }} FROM {{ source | table }}
), r AS (
    SELECT *, dense_rank() OVER (ORDER BY {{ keys | idents }}) AS rank_id FROM k
)
{% for col in sa %}
SELECT r.rank_id AS gid, r.rank_id AS gid2, {{ loop.index }} AS s,
       CAST(src.{{ col | ident }} AS VARCHAR) AS v,
       {% if null_as_value %}false{% else %}src.{{ col | ident }} IS NULL{% endif %} AS unknown,
       count(*) AS n
FROM {{ source | table }} AS src
JOIN r ON {% for key in keys %}r.{{ key | ident }} IS NOT DISTINCT FROM src.{{ key | ident }}{% if not loop.last %} AND {% endif %}{% endfor %}

{% if partitioned %}
WHERE CAST(hash({{ part_keys | idents(prefix='src') }}) >> 1 AS BIGINT) % $parts = $part
{% endif %}
GROUP BY ALL
{% if not loop.last %}
UNION ALL
{% endif %}
{% endfor %}
{% else %}
{% include "_macros/histogram_rows.sql" %}
{% endif %}
