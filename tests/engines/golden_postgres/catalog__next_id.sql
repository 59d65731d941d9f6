/* purpose: the largest value of an id column plus one (1 for an empty table): an engine without sequences numbers ldiv's records so */
/* params: none */
/* returns: next_id */
/* ref: ldiv_db/db/spark/engine.py (nextval of ldiv's sequences: one writer per catalog at a time) */
SELECT
  COALESCE(MAX("group"), 0) + 1 AS next_id
FROM "main"."select"
