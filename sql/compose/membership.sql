-- purpose: per target vector and word of SA values, each release's union mask side by side (0 where a release leaves no value of the word)
-- params: none
-- returns: creates target(pid, word, m1..mM)
-- ref: docs/decisions/0005-composition-check.md (the intersection across releases is the AND of the masks)
{{ target | create_table }} AS
SELECT pid, word{% for t in tables %}, bit_or({{ ('m' ~ loop.index) | ident }}) AS {{ ('m' ~ loop.index) | ident }}{% endfor %}

FROM (
{% for t in tables %}
{% set r = loop.index %}
    SELECT pid, word{% for u in tables %}, {% if loop.index == r %}mask{% else %}CAST(0 AS BIGINT){% endif %} AS {{ ('m' ~ loop.index) | ident }}{% endfor %} FROM {{ t | table }}
{% if not loop.last %}
    UNION ALL
{% endif %}
{% endfor %}
) AS u
GROUP BY pid, word
