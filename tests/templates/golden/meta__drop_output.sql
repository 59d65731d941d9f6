/* purpose: drop a previous output table (only with --replace, inside the release transaction) */
/* params: none */
/* returns: nothing */
/* ref: DESIGN §6 */
DROP TABLE IF EXISTS "main"."nothing here"
