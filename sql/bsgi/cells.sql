-- purpose: BSGI's compressed rows: a cell = the rows of one bucket with equal QI codes (and equal secondary SA and individual codes); key<k> = the rank of the QI codes in the k-th locality order (a lexicographic order of the QIs, as given)
-- params: none
-- returns: rid, cell, key1..keyK, b, q1..qd, s2..sk, ind — one row per source row, ordered by cell, rid (cells numbered by bucket, then the first order)
-- ref: DESIGN §5 (compress first); SPEC §0.6 rule 1 (a cell's rows leave it in ascending row id)
SELECT rid,
       dense_rank() OVER (ORDER BY b, {{ orders[0] | idents }}{% for s in extra %}, {{ s | ident }}{% endfor %}{% if individual %}, ind{% endif %}) - 1 AS cell,
{% for order in orders %}
       dense_rank() OVER (ORDER BY {{ order | idents }}) - 1 AS {{ ('key' ~ loop.index) | ident }},
{% endfor %}
       b, {{ qcols | idents }}{% for s in extra %}, {{ s | ident }}{% endfor %}{% if individual %}, ind{% endif %}

FROM {{ codes | table }}
ORDER BY cell, rid
