-- purpose: give a job's staged load (a committed table beside the target) the target's name, inside the job's transaction; the rows keep their committed row ids
-- params: none
-- returns: nothing
-- ref: issue 51 class 8 (the private link names committed rows); rendered only by ldiv_db/core/ownership.py
ALTER TABLE {{ source | table }} RENAME TO {{ new_name | ident }}
