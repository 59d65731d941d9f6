/* purpose: load a delimited text file into a new table (types detected; header row expected) */
/* params: path, sep */
/* returns: creates target */
/* ref: issue 2 item 3 (ldiv load DB FILE --table T [--sep ';']) */
CREATE TABLE "main"."loaded it's" AS
SELECT
  *
FROM READ_CSV((
  CAST(%(path)s AS TEXT)
), delim = (
  CAST(%(sep)s AS TEXT)
), header = TRUE);
ANALYZE "main"."loaded it's"
