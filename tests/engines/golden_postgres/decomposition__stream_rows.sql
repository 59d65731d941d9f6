/* purpose: record where the arriving rows of a stream come from (row key, source table, source row id, first eligible release) */
/* params: name, offset, source_name, release */
/* returns: inserts into ldiv.stream_row, or into target (a staged release: stream_rows_enter.sql enters them once it is recorded) */
/* ref: SPEC §4.3 (continuous release); DESIGN §6 (private link to source rows) */
INSERT INTO "pg_temp"."wk dec pending's" (
  name,
  row_key,
  source,
  source_rowid,
  arrived
)
SELECT
  (
    CAST(%(name)s AS TEXT)
  ),
  CAST((
    CAST(CAST('x' || ENCODE(TIDSEND(ctid), 'hex') AS BIT(48)) AS BIGINT) - 1
  ) AS BIGINT) + (
    CAST(%(offset)s AS BIGINT)
  ),
  (
    CAST(%(source_name)s AS TEXT)
  ),
  (
    CAST(CAST('x' || ENCODE(TIDSEND(ctid), 'hex') AS BIT(48)) AS BIGINT) - 1
  ),
  (
    CAST(%(release)s AS BIGINT)
  )
FROM "main"."select"
