-- purpose: an empty work table shaped like ldiv.stream_row, where a staged release keeps its new stream rows until it is recorded
-- params: none
-- returns: creates target
-- ref: ldiv_db/pipeline/staged.py (a release without transactions); SPEC §4.3
{{ target | create_table }} AS SELECT name, row_key, source, source_rowid, arrived FROM ldiv.stream_row WHERE false
