/* purpose: install the DuckDB macro ldiv.sql_functions_version(): the revision of the installed SQL functions (ldiv_db/commands/sql_functions.py REVISION; the same number here) */
/* params: none */
/* returns: creates macro ldiv.sql_functions_version() returning an integer */
/* ref: issue 55 item 2; docs/decisions/0016-sql-functions-and-dbt.md (an install never replaces functions of a newer revision) */
CREATE OR REPLACE MACRO ldiv.sql_functions_version() AS
1
