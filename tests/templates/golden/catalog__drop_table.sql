/* purpose: drop a table (load --replace, inside the load transaction) */
/* params: none */
/* returns: nothing */
/* ref: issue 2 item 3 */
DROP TABLE IF EXISTS "main"."nothing here"
