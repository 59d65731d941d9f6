-- purpose: the one check of a stream batch's row keys, before anything is written: rows with a NULL key (an explicit --key), keys repeated inside the batch (an explicit --key), and keys the stream already received (published or kept back); a content fingerprint (no --key) only checks the last
-- params: none
-- returns: rows, null_rows, null_examples, repeated_rows, repeated_examples, known_rows, known_examples; the examples are up to 5 [row number, key text] pairs of the batch in row order
-- ref: DESIGN §6 (a stream keys its rows and never publishes a source row twice); SPEC §4.3 (continuous release)
WITH batch AS (
    SELECT src.rowid + 1 AS rn,
           {% include "_macros/stream_key_text.sql" %} AS key_text,
{% if explicit %}
           ({% for c in key %}src.{{ c | ident }} IS NULL{% if not loop.last %} OR {% endif %}{% endfor %}) AS null_key
{% else %}
           false AS null_key
{% endif %}
    FROM {{ source | table }} AS src
), keyed AS (
    SELECT rn, key_text, md5(key_text) AS key_hash,
{% if explicit %}
           NOT null_key AND count(*) OVER (PARTITION BY key_text) > 1 AS repeated
{% else %}
           false AS repeated
{% endif %}
    FROM batch
), known AS (
{% if keys %}
    SELECT k.rn, k.key_text FROM keyed AS k WHERE k.key_hash IN (SELECT key_hash FROM {{ keys | table }})
{% else %}
    SELECT rn, key_text FROM keyed WHERE false
{% endif %}
)
SELECT (SELECT count(*) FROM batch) AS rows,
       (SELECT count(*) FROM batch WHERE null_key) AS null_rows,
       (SELECT list([CAST(rn AS VARCHAR), key_text] ORDER BY rn)[1:5] FROM batch WHERE null_key) AS null_examples,
       (SELECT count(*) FROM keyed WHERE repeated) AS repeated_rows,
       (SELECT list([CAST(rn AS VARCHAR), key_text] ORDER BY rn)[1:5] FROM keyed WHERE repeated) AS repeated_examples,
       (SELECT count(*) FROM known) AS known_rows,
       (SELECT list([CAST(rn AS VARCHAR), key_text] ORDER BY rn)[1:5] FROM known) AS known_examples
