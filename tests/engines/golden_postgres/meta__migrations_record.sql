/* purpose: record migrations that ran, several in one statement (on an engine without transactions, after the last of them ran) */
/* params: versions, names, checksums */
/* returns: inserts one row per migration into ldiv.schema_migration (the three lists: one entry per migration, in order) */
/* ref: ldiv_db/db/spark/schema.py (prepare_spark); ldiv_db/schema/migrate.py (BOOKKEEPING) */
INSERT INTO ldiv.schema_migration (
  version,
  name,
  checksum,
  applied_at
)
VALUES
  (
    (
      CAST(%(versions)s AS BIGINT[])
    )[1],
    (
      CAST(%(names)s AS TEXT[])
    )[1],
    (
      CAST(%(checksums)s AS TEXT[])
    )[1],
    CURRENT_TIMESTAMP
  ),
  (
    (
      CAST(%(versions)s AS BIGINT[])
    )[2],
    (
      CAST(%(names)s AS TEXT[])
    )[2],
    (
      CAST(%(checksums)s AS TEXT[])
    )[2],
    CURRENT_TIMESTAMP
  )
