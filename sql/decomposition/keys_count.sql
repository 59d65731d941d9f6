-- purpose: reconcile a stream's private key table: one key per received row, row keys unique, and (explicit --key) no key twice
-- params: none
-- returns: keys, distinct_rows, distinct_keys; with explicit false distinct_keys is NULL (a content fingerprint may repeat: identical rows of one batch are different rows)
-- ref: DESIGN §6 (a stream keys its rows and never publishes a source row twice)
SELECT count(*) AS keys, count(DISTINCT rk) AS distinct_rows, {% if explicit %}count(DISTINCT key_hash){% else %}CAST(NULL AS BIGINT){% endif %} AS distinct_keys
FROM {{ target | table }}
