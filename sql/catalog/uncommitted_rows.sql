-- purpose: whether a table holds rows that the open transaction wrote and has not committed: DuckDB numbers them from $local_base (its transaction-local row ids) and renumbers them when the transaction commits, so a row id read now would name no row afterwards
-- params: local_base
-- returns: uncommitted (one row): true when the table holds such rows
-- ref: issue 51 class 8 (the private link ldiv.release_row names committed rows); run only where the engine has such ids (Database.local_row_base)
SELECT EXISTS (SELECT 1 FROM {{ source | table }} AS src WHERE src.rowid >= $local_base) AS uncommitted
