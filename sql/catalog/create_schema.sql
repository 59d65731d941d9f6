-- purpose: create a schema if it does not exist
-- params: none
-- returns: nothing
-- ref: issue 13 (a file loaded into another engine is staged in an in-memory DuckDB under the target's schema)
CREATE SCHEMA IF NOT EXISTS {{ schema | ident }}
