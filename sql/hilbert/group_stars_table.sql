-- purpose: an empty table that receives, from Python, the groups whose rows disagree on some QI: per QI whether the group's label is '*' (Definition 1)
-- params: none
-- returns: creates target(gid, s1..s<qi_count>); a group not in it has rows that agree on every QI
-- ref: SPEC §0.5 (Definition 1 of TP); ldiv_db.algorithms.base (Partitioning.group_stars); release/write_suppress.sql (stars)
{{ target | create_table }} (
    gid BIGINT NOT NULL{% if qi_count %},{% endif %}

{% for i in range(1, qi_count + 1) %}
    {{ ('s' ~ i) | ident }} BOOLEAN NOT NULL{% if not loop.last %},{% endif %}

{% endfor %}
)
