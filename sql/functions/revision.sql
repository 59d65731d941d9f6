-- purpose: the revision the installed SQL functions report
-- params: none
-- returns: revision
-- ref: issue 55 item 2; functions/version.sql
SELECT ldiv.sql_functions_version() AS revision
