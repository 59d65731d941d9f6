-- purpose: Mondrian's compressed input: per distinct QI vector (its ordinals) and SA the count of every SA value among its rows
-- params: none
-- returns: o1..od, missing (the cell's rows with a NULL ordinal), s (SA position, 1-based), v (SA value code: dense rank of the value within its SA), n — one row per (vector, s, v), in no order (the caller numbers the vectors and sorts its integer keys)
-- ref: DESIGN §5 (compress first); SPEC §0.1 (QI-groups, X(v)); the SA values (text) ranked in the bytes' order on every engine (COLLATE "C", see mondrian/rows.sql),
--      each spelling coded once and joined back to the (vector, value) counts (bench/results/history.md, "One million rows", Round 3)
--      on one key, the SA's position and the spelling (NULL marked apart from every value): with the position and the spelling
--      as two equalities PostgreSQL merged on the position alone (one value for one SA) and compared the spellings of every
--      pair, quadratic in the SA's values (bench/results/history.md, "Round 24: PostgreSQL on the shapes")
WITH counts AS (
    -- grouped by the ordinals themselves (NULL a value of its own, as GROUP BY holds it): the rows carry no
    -- vector id (see mondrian/rows.sql)
{% for s in sas %}
    SELECT {{ ords | idents }},
           count(*) FILTER (WHERE {% for o in ords %}{{ o | ident }} IS NULL{% if not loop.last %} OR {% endif %}{% endfor %}) AS missing,
           {{ loop.index }} AS s, {{ s | ident }} AS value, count(*) AS n
    FROM {{ rows | table }}
    GROUP BY {{ ords | idents }}, {{ s | ident }}
{% if not loop.last %}
    UNION ALL
{% endif %}
{% endfor %}
),
spellings AS (
    -- each SA's values once per spelling (a few rows): they are coded there, not on every (vector, value) row
    SELECT DISTINCT s, value COLLATE "C" AS spelling, value FROM counts
),
codes AS (
    -- per SA value its first spelling in the bytes' order: values the column's collation holds equal
    -- (a case-insensitive collation: 'flu', 'FLU') are one value, as every other count of ldiv_db says
    -- k: the position's digits, then '#' for NULL, or ':' and the spelling
    SELECT CAST(s AS VARCHAR) || CASE WHEN spelling IS NULL THEN '#' ELSE ':' || spelling END AS k,
           dense_rank() OVER (PARTITION BY s ORDER BY first COLLATE "C") - 1 AS v
    FROM (SELECT s, spelling, min(spelling) OVER (PARTITION BY s, value) AS first FROM spellings) AS f
)
SELECT {% for o in ords %}{% if not loop.first %}, {% endif %}c.{{ o | ident }}{% endfor %}, c.missing, c.s, codes.v, c.n
FROM counts AS c
JOIN codes
  -- a NULL value (--null-as-value) is a spelling of its own: matched as one, not by equality
  ON codes.k = CAST(c.s AS VARCHAR) || CASE WHEN c.value IS NULL THEN '#' ELSE ':' || (c.value COLLATE "C") END
