-- purpose: enter a staged release's stream rows into the stream's row map, once the release is recorded
-- params: none
-- returns: inserts into ldiv.stream_row
-- ref: ldiv_db/pipeline/staged.py (a release without transactions); SPEC §4.3
INSERT INTO ldiv.stream_row (name, row_key, source, source_rowid, arrived)
SELECT name, row_key, source, source_rowid, arrived FROM {{ source | table }}
