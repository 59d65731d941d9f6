-- purpose: store the row keys of a stream batch in the stream's private key table (created by the first release, appended to by every later one): the md5 of the key text, never the key itself
-- params: offset
-- returns: creates (first release) or inserts into target(rk, key_hash)
-- ref: DESIGN §6 (a stream keys its rows); SPEC §4.3
{% if create %}
CREATE TABLE {{ target | table }} AS
{% else %}
INSERT INTO {{ target | table }}
{% endif %}
SELECT CAST(src.rowid AS BIGINT) + $offset AS rk, md5({% include "_macros/stream_key_text.sql" %}) AS key_hash
FROM {{ source | table }} AS src
