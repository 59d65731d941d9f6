-- purpose: the rows of one Decomposition+ release: the rows kept back by earlier releases plus the arriving rows, each with its row key and the release it was first eligible for; the stream's columns become positional slots c1..cn
-- params: offset, release
-- returns: creates target(rk, arrived, c1..cn)
-- ref: SPEC §4.3 (kept-back rows join later releases; starvation = release - arrived)
{{ target | create_table }} AS
{% if retained %}
SELECT rk, arrived{% for c in columns %}, {{ ('c' ~ loop.index) | ident }}{% endfor %}

FROM {{ retained | table }}
UNION ALL
{% endif %}
SELECT CAST(rowid AS BIGINT) + $offset AS rk, CAST($release AS INTEGER) AS arrived{% for c in columns %}, {{ c | ident }} AS {{ ('c' ~ loop.index) | ident }}{% endfor %}

FROM {{ source | table }}
