-- purpose: the compressed partition of a written release for its verification, from the release aggregate: per group (equal group id, or equal QI label vector) and SA, the count of every SA value
-- params: none
-- returns: creates target(gid, gid2, s, v, unknown, n) as partition/histogram.sql builds it (one_row_each: by group id, with one SA, when release/same_partition.sql found one label vector per group id — the aggregate's rows are then one per group id and SA value, and are taken without aggregating): by group id, gid = gid2 = the group id as written (an integer: release/write.sql's); by labels with hash_ids, gid and gid2 are two hashes of the label vector q1..qd (partition/histogram.sql's, so partition/gid_check.sql finds a collision), else both the dense rank of the label vector
-- ref: DESIGN §6 (the model holds on the written table, by group id and by QI labels as an attacker groups them); same ids as partition/group_keys.sql (raw_id, hashed, ranked); hashing the labels costs half of ranking them, the group id needs neither (issue 12)
{{ target | create_table }} AS
{% include "_macros/verify_rows.sql" %}
