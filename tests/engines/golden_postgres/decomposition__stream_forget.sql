/* purpose: forget the row map of a release stream that is being replaced (its releases stay in ldiv.release) */
/* params: name */
/* returns: deletes from ldiv.stream_row */
/* ref: SPEC §4.3 */
DELETE FROM ldiv.stream_row
WHERE
  name = (
    CAST(%(name)s AS TEXT)
  )
