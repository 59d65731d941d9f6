/* purpose: the empty per-group label table an algorithm fills with the LCA labels it computed from its own arrays (recoding 'lca'), in the shape of release/labels_lca.sql's result */
/* params: none */
/* returns: creates target(gid, q1..qd) */
/* ref: SPEC §0.5 (local recoding / LCA generalization), §0.4 (preorder ids: the LCA of leaves is the LCA of the smallest and largest id); ldiv_db/algorithms/shared/lca.py */
CREATE OR REPLACE TEMPORARY TABLE "temp"."main"."wk group labels's" (
  gid BIGINT,
  "q1" TEXT,
  "q2" TEXT,
  "q3" TEXT,
  "q4" TEXT
)
