-- purpose: every row of a table with its row id as a column of its own (DuckDB: a file read for another engine)
-- params: none
-- returns: the table's columns, then id_column
-- ref: ldiv_db/db/spark/engine.py (load_file: the row ids travel with the rows to Spark)
SELECT *, rowid AS {{ id_column | ident }} FROM {{ source | table }}
