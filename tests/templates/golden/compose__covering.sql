/* purpose: one step of the covering join: the (target vector prefix, class) pairs whose class labels cover the prefix's values, extended by one QI; the last step gives (pid, cid) for the whole vectors; the classes covering every target (classes.sql's everywhere) stay out: their values are the release's shared mask (shared.sql) */
/* params: none */
/* returns: creates target(<prefix columns> or pid, cid) */
/* ref: docs/decisions/0005-composition-check.md; a label covers a value when the cover table (metrics/cover.sql) pairs them. The vectors are matched attribute by attribute (a trie join): the pairs of distinct prefixes and classes stay few where one join over every attribute would pair each vector with every class covering any one of its values */
CREATE OR REPLACE TEMPORARY TABLE "temp"."main"."wk compose step1's" AS
SELECT
  p.pid,
  c.cid
FROM "temp"."main"."wk compose step0's" AS r
JOIN "temp"."main"."wk compose points's" AS p
  ON p."v1" = r."v1"
JOIN "temp"."main"."wk compose classes's" AS c
  ON c.cid = r.cid
JOIN "temp"."main"."wk compose cover's" AS cv
  ON cv.attr = 2 AND cv.label = c."l2" AND cv.value = p."v2"
