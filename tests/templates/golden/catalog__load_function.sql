/* purpose: materialize what a DuckDB table function reads (read_parquet('data/ *.parquet'), read_csv(...)) into a new table, in the order it reads */
/* params: none */
/* returns: creates target; its row ids are the rows' positions in the read (files in name order, rows in file order), stable while the files are */
/* ref: issue 55 item 4 (check / anonymize --from); ldiv_db/sqlgen/table_function.py checks the call (one file-reading function, literal arguments) */
CREATE OR REPLACE TABLE "main"."loaded it's" AS
SELECT
  *
FROM READ_CSV('fixtures/papers/bsgi_table1.csv', delim = ';', header = TRUE)
