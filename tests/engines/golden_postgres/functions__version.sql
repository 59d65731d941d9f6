/* purpose: install the PostgreSQL function ldiv.sql_functions_version(): the revision of the installed SQL functions (the same number as functions/version.sql) */
/* params: none */
/* returns: creates function ldiv.sql_functions_version() returning an integer */
/* ref: issue 55 item 2; docs/decisions/0016-sql-functions-and-dbt.md */
CREATE OR REPLACE FUNCTION ldiv.sql_functions_version()
RETURNS INT
LANGUAGE sql
IMMUTABLE AS
$$ SELECT 1 $$
