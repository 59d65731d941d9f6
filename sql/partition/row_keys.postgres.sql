-- purpose: the key values of source rows given by row id, for reports; on PostgreSQL by their physical addresses
-- params: rids
-- returns: rid, k1..kd
-- ref: partition/row_keys.sql; a row id is the row's ctid as page * 65536 + tuple - 1 (ldiv_db/sql_dialects.py), so the rows are fetched by a TID scan of those addresses instead of a scan that decodes every row's ctid (a million rows: 0.11 s, by address about a millisecond)
SELECT
    CAST(rowid AS BIGINT) AS rid,
{% for key in keys %}
    {{ key | ident }} AS {{ ('k' ~ loop.index) | ident }}{% if not loop.last %},{% endif %}

{% endfor %}
FROM {{ source | table }}
WHERE ctid = ANY(ARRAY(
    SELECT CAST('(' || ((r + 1) >> 16) || ',' || ((r + 1) & 65535) || ')' AS tid)
    FROM unnest(CAST($rids AS BIGINT[])) AS u(r)
))
