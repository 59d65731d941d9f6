/* purpose: register a hierarchy for (table, column); its nodes and levels follow as bulk inserts */
/* params: table_name, column_name, kind, height, leaves, nodes, source */
/* returns: hierarchy_id */
/* ref: SPEC §0.4 */
INSERT INTO ldiv.hierarchy (
  hierarchy_id,
  table_name,
  column_name,
  kind,
  height,
  leaves,
  nodes,
  source
)
VALUES
  (
    NEXTVAL('ldiv.hierarchy_seq'),
    $table_name,
    $column_name,
    $kind,
    $height,
    $leaves,
    $nodes,
    $source
  )
RETURNING hierarchy_id
