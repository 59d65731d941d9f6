/* purpose: TP+'s staying rows appended to its assignment under their QI-groups' published ids (the group-id rule applied by the algorithm over every group of the run, ldiv_db/util/seeded_key.py published_ids; Partitioning.ids_published) */
/* params: none */
/* returns: inserts into target(rid, gid, deleted, sa_suppressed) every row of staying, its gid replaced by the id ids(gid, pub) publishes it under; a group id not in ids leaves gid NULL, which the target's NOT NULL refuses */
/* ref: ldiv_db/pipeline/opaque.py publish_ids (the rule; sql/order/group_ids.sql its statement); tp/assign.sql (staying_only); hilbert/groups_table.sql (the target) */
INSERT INTO "pg_temp"."wk tp published's" (
  rid,
  gid,
  deleted,
  sa_suppressed
)
SELECT
  s.rid,
  m.pub,
  s.deleted,
  s.sa_suppressed
FROM "pg_temp"."wk tp staying's" AS s
LEFT JOIN "pg_temp"."wk tp published ids's" AS m
  ON m.gid = s.gid
