/* purpose: load a delimited text file, or the files a glob matches (in name order), into a new table (types detected; header row expected) */
/* params: path, sep */
/* returns: creates target */
/* ref: issue 2 item 3 (ldiv load DB FILE --table T [--sep ';']); issue 52: the quote is '"' (a quote */
/*      inside a quoted value doubled), never detected, so an unbalanced quote is an error, not text */
CREATE TABLE "main"."loaded it's" AS
SELECT
  *
FROM READ_CSV($path, delim = $sep, header = TRUE, quote = '"', escape = '"')
