-- purpose: the composition's counts: targets (source rows), rows left below each release's l, with one value, with none
-- params: ls
-- returns: rows, single, empty, below1..belowM (one row; counts of source rows)
-- ref: docs/decisions/0005-composition-check.md; ls[r] is the r-th release's l (the pairs' counts: compose/pair_counts.sql)
SELECT CAST(coalesce(sum(n), 0) AS BIGINT) AS {{ 'rows' | ident }},
       CAST(coalesce(sum(n) FILTER (WHERE left_all = 1), 0) AS BIGINT) AS single,
       CAST(coalesce(sum(n) FILTER (WHERE left_all = 0), 0) AS BIGINT) AS empty
{% for r in range(1, m + 1) %}
     , CAST(coalesce(sum(n) FILTER (WHERE left_all < list_extract($ls, {{ r }})), 0) AS BIGINT) AS {{ ('below' ~ r) | ident }}
{% endfor %}
FROM {{ values | table }}
