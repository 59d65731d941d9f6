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
    (
      CAST(%(table_name)s AS TEXT)
    ),
    (
      CAST(%(column_name)s AS TEXT)
    ),
    (
      CAST(%(kind)s AS TEXT)
    ),
    (
      CAST(%(height)s AS BIGINT)
    ),
    (
      CAST(%(leaves)s AS BIGINT)
    ),
    (
      CAST(%(nodes)s AS BIGINT)
    ),
    NULL
  )
RETURNING hierarchy_id
