DROP TABLE IF EXISTS "pg_temp"."tpl it's_empty tree";
/* purpose: an empty table of an SA's hierarchy for the hierarchical distance, filled by the controller */
/* params: none */
/* returns: creates target(s, v, h, node): per SA s and leaf v, its ancestor's label at level h (0 = the leaf itself, H = the root) */
/* ref: Li, Li, Venkatasubramanian 2007 §4.3 (hierarchical distance); a node is (level, label), as ldiv.hierarchy_level stores it */
CREATE TABLE "pg_temp"."tpl it's_empty tree" (
  s INT NOT NULL,
  v TEXT,
  h INT NOT NULL,
  node TEXT
)
