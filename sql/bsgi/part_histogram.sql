-- purpose: BSGI in parts: rows per code prefix (the locality order's leading QIs) and SA bucket, from which the parts plan reads where equal slabs of the order would cut each bucket
-- params: none
-- returns: p1..pk, b, n — one row per (prefix codes, bucket) present
-- ref: ldiv_db/algorithms/bsgi/refine/parts.py (natural_counts)
SELECT {% for q in prefix %}{{ q | ident }} AS {{ ('p' ~ loop.index) | ident }}, {% endfor %}b, count(*) AS n
FROM {{ codes | table }}
GROUP BY {% for q in prefix %}{{ q | ident }}, {% endfor %}b
