/* purpose: drop a table that ldiv_db may drop (a release it owns being replaced, or the table `ldiv load --replace` names), inside the writer's transaction */
/* params: none */
/* returns: nothing */
/* ref: DESIGN §6; rendered only by ldiv_db/core/ownership.py, the one place that decides what may be dropped */
DROP TABLE "main"."drop me it's"
