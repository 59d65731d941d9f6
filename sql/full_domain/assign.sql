-- purpose: full-domain assignment: each row joins the group of its generalized QI vector (group ids renumbered 1..g); rows of groups the model rejects are deleted (suppressed)
-- params: none
-- returns: creates target(rid, gid, deleted, sa_suppressed)
-- ref: SPEC §0.4; ARX-style record suppression of violating equivalence classes; the group id is the evaluator's (partition/histogram.sql)
{{ target | create_table }} AS
WITH lab AS (
    SELECT rid,
{% if exact_ids %}
           dense_rank() OVER (ORDER BY {{ qi | idents }}) AS gid
{% else %}
           CAST(hash({{ qi | idents }}) >> 1 AS BIGINT) AS gid
{% endif %}
    FROM {{ labels | table }}
), num AS (
    SELECT gid, ok, row_number() OVER (ORDER BY gid) AS group_no FROM {{ verdict | table }}
)
SELECT lab.rid, num.group_no AS gid, NOT num.ok AS deleted, false AS sa_suppressed
FROM lab JOIN num ON num.gid = lab.gid
