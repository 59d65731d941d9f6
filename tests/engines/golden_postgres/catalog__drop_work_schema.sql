/* purpose: drop a schema of work tables with everything in it (a run's own work schema when its work is done, or one a killed run left) */
/* params: none */
/* returns: nothing */
/* ref: ldiv_db/db/postgres/engine.py (parallel_work), ldiv_db/db/spark/engine.py (close); DESIGN §3 (work tables are dropped on success) */
DROP SCHEMA IF EXISTS "wk sch'ema" CASCADE
