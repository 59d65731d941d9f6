-- purpose: record where the arriving rows of a stream come from (row key, source table, source row id, first eligible release)
-- params: name, offset, source_name, release
-- returns: inserts into ldiv.stream_row, or into target (a staged release: stream_rows_enter.sql enters them once it is recorded)
-- ref: SPEC §4.3 (continuous release); DESIGN §6 (private link to source rows)
INSERT INTO {% if target %}{{ target | table }}{% else %}ldiv.stream_row{% endif %} (name, row_key, source, source_rowid, arrived)
SELECT $name, CAST(rowid AS BIGINT) + $offset, $source_name, rowid, $release
FROM {{ source | table }}
