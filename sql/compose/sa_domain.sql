-- purpose: the SA values the attacker knows to exist: the source's distinct non-NULL SA values, as text, each a bit of a 62-bit word
-- params: none
-- returns: creates target(sa, code, word, bit): code numbers the values from 0 in the bytes' order, word = code div width, bit = 2^(code mod width); width (shape, 1..62, default 62): the values per word (the tests narrow it to spread a small domain over several words)
-- ref: docs/decisions/0005-composition-check.md (value sets as bit masks per word; a release that tells nothing about a target leaves it every value; a published unknown SA stands for every value)
{{ target | create_table }} AS
WITH d AS (
    SELECT sa, CAST(row_number() OVER (ORDER BY sa COLLATE "C") - 1 AS BIGINT) AS code
    FROM (SELECT DISTINCT CAST({{ sa | ident }} AS VARCHAR) AS sa FROM {{ source | table }} WHERE {{ sa | ident }} IS NOT NULL) AS v
)
{% set width = width | default(62) %}
SELECT sa, code, CAST((code - code % {{ width }}) / {{ width }} AS BIGINT) AS word, CAST(power(2, code % {{ width }}) AS BIGINT) AS bit
FROM d
