DROP TABLE IF EXISTS "pg_temp"."wk compose points's";
/* purpose: the distinct QI vectors of the attacker's targets (as value codes), numbered */
/* params: none */
/* returns: creates target(pid, v1..vk) */
/* ref: docs/decisions/0005-composition-check.md; DESIGN §5 (compress first: the check works per distinct vector, not per row) */
CREATE TABLE "pg_temp"."wk compose points's" AS
SELECT
  ROW_NUMBER() OVER (ORDER BY "v1", "v2", "v3", "v4") AS pid,
  "v1",
  "v2",
  "v3",
  "v4"
FROM (
  SELECT DISTINCT
    "v1",
    "v2",
    "v3",
    "v4"
  FROM "pg_temp"."wk compose keys's"
) AS d;
ANALYZE "pg_temp"."wk compose points's"
