/* purpose: one release's distinct QI label vectors (label codes), numbered as in its class masks */
/* params: none */
/* returns: creates target(cid, l1..lk) */
/* ref: docs/decisions/0005-composition-check.md */
CREATE OR REPLACE TEMPORARY TABLE "temp"."main"."wk compose classes's" AS
SELECT DISTINCT
  cid,
  "l1",
  "l2",
  "l3",
  "l4"
FROM "temp"."main"."wk compose masks's"
