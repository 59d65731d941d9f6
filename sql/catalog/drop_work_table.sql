-- purpose: drop one of a connection's work tables (Database.work_table) once its work is done
-- params: none
-- returns: nothing
-- ref: DESIGN §3 (work tables are dropped on success, kept with --keep-work)
DROP TABLE IF EXISTS {{ target | table }}
